// Reads the trend page's plots as the browser lays them out (issue 44,
// item 8): the test inlines each gnuplot SVG into one page before this
// script, and chromium's dump of the page carries what it found on <body>.
//   data-svgs              plots read
//   data-xlabels           x-axis labels (non-empty), all plots together
//   data-xlabel-overlaps   neighbouring labels whose text boxes overlap
//                          (210 runs' labels merged into a black band)
//   data-marks             change-point numbers drawn (purple labels)
//   data-mark-overlaps     pairs of those numbers whose boxes overlap
//   data-slowed            texts that say a run was slowed on purpose
(function () {
  var svgs = document.querySelectorAll('svg'), labels = 0, overlaps = 0, marks = 0, slowed = 0, markOverlaps = 0;
  svgs.forEach(function (svg) {
    var xl = [], mk = [];
    svg.querySelectorAll('text').forEach(function (t) {
      var g = t.parentNode, text = t.textContent.trim();
      if (text.indexOf('slowed on purpose') >= 0)
        slowed++;
      if (/^[0-9]+$/.test(text) && /rgb\(112, *48, *160\)|#7030a0/i.test(getComputedStyle(t).fill))
        mk.push(t.getBoundingClientRect());
      // gnuplot writes each tic label as <g transform="translate(x,y) rotate(30)"><text>
      if (!text || !/rotate\(30\)/.test(g.getAttribute('transform') || ''))
        return;
      var m = g.getCTM(), b = t.getBBox();
      xl.push({ x: m.e, y: m.f, a: Math.atan2(m.b, m.a), w: b.width,
                size: parseFloat(getComputedStyle(t).fontSize) });
    });
    marks += mk.length;
    for (var a = 0; a < mk.length; a++)
      for (var b = a + 1; b < mk.length; b++)
        if (mk[a].left < mk[b].right && mk[b].left < mk[a].right && mk[a].top < mk[b].bottom && mk[b].top < mk[a].bottom)
          markOverlaps++;
    xl.sort(function (p, q) { return p.x - q.x; });
    labels += xl.length;
    // Two labels of one angle overlap when, in the frame of their baseline,
    // the next starts within the first's length and less than a font size
    // away across it.
    for (var i = 1; i < xl.length; i++) {
      var p = xl[i - 1], dx = xl[i].x - p.x, dy = xl[i].y - p.y;
      var along = dx * Math.cos(p.a) + dy * Math.sin(p.a), across = -dx * Math.sin(p.a) + dy * Math.cos(p.a);
      if (Math.abs(across) < p.size && Math.abs(along) < p.w)
        overlaps++;
    }
  });
  var body = document.body;
  body.setAttribute('data-svgs', svgs.length);
  body.setAttribute('data-xlabels', labels);
  body.setAttribute('data-xlabel-overlaps', overlaps);
  body.setAttribute('data-marks', marks);
  body.setAttribute('data-mark-overlaps', markOverlaps);
  body.setAttribute('data-slowed', slowed);
})();
