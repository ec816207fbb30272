# Size sweep: runtime copy vs host read, from bench_discriminator --sweep-csv.
#   gnuplot -e "csv='bench_sweep.csv'; out='bench_sweep'; title='...'" bench/sweep.gp
# writes out.png and out.svg. Error bars are the robust spread (1.4826 MAD).
if (!exists("csv")) csv = 'bench_sweep.csv'
if (!exists("out")) out = 'bench_sweep'
if (!exists("title")) title = 'runtime copy vs host read'
set datafile separator ','
set datafile commentschars '#'
set key top left
set logscale xy 2
set xlabel 'bytes read'
set ylabel 'ns per read (median)'
set title title noenhanced
set grid
set xtics ("4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576)
plot_it = "plot csv skip 1 using 1:2:3 with yerrorlines lw 2 title 'runtime D2H copy', \
     csv skip 1 using 1:4:5 with yerrorlines lw 2 title 'host read (8-byte loads)', \
     csv skip 1 using 1:6:7 with yerrorlines lw 2 dt 2 title 'host read (non-temporal loads)'"
set terminal pngcairo size 900,560 noenhanced
set output out.'.png'
eval plot_it
set terminal svg size 900,560 noenhanced
set output out.'.svg'
eval plot_it
