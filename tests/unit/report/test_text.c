/* One escaping per output format: each function below is the only way
 * record text reaches its format, so each promise is checked here on the
 * text that would break it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "text.h"

typedef void (*writer)(FILE *, const char *);

static char *through(writer w, const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    w(f, s);
    fclose(f);
    return buf;
}

static void markdown_cells_cannot_be_ended_or_marked_up(void **s)
{
    (void)s;
    const char *t = md_text("a|b`c*d_e[f]g<h>i!j&k~l#m$n\\o");
    /* # is also followed by a WORD JOINER: GitHub links "#123" even escaped */
    assert_string_equal(t, "a\\|b\\`c\\*d\\_e\\[f\\]g\\<h\\>i\\!j\\&k\\~l\\#\u2060m\\$n\\\\o");
    assert_null(strchr(md_text("x\ny\rz"), '\n'));
    text_pool_free();
}

/* What GitHub would turn into a mention, a reference or a link is broken
 * by an invisible WORD JOINER; the text reads the same. */
static void markdown_text_cannot_mention_reference_or_link(void **s)
{
    (void)s;
    assert_string_equal(md_text("@team #12 https://x.org WWW.x.org a@b.c"),
                        "@\u2060team \\#\u206012 https:\u2060//x.org WWW\u2060.x.org a@\u2060b.c");
    text_pool_free();
}

static void csv_fields_never_run_or_split(void **s)
{
    (void)s;
    const char *bad[] = {"=1+1", "+SUM(A1)", "-2", "@x", "\tx", "\rx"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *o = through(csv_text, bad[i]);
        const char *v = o[0] == '"' ? o + 1 : o;
        assert_int_equal(v[0], '\'');
        assert_null(strchr(o, '\n'));
        assert_null(strchr(o, '\r'));
        free(o);
    }
    char *o = through(csv_text, "a\nb,\"c\"");
    assert_string_equal(o, "\"a b,\"\"c\"\"\"");
    free(o);
}

static void xml_and_html_hold_only_what_they_can(void **s)
{
    (void)s;
    char *o = through(xml_text, "<a href=\"x\">&'\x01\xff");
    assert_string_equal(o, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;\xef\xbf\xbd\xef\xbf\xbd");
    free(o);
    /* U+FFFE and U+FFFF are not XML characters: junit.xml would not parse */
    o = through(xml_text, "a\xef\xbf\xbe b\xef\xbf\xbf c\xef\xbf\xbd");
    assert_string_equal(o, "a\xef\xbf\xbd b\xef\xbf\xbd c\xef\xbf\xbd");
    free(o);
    o = through(html_text, "<script>'\"&");
    assert_null(strchr(o, '<'));
    assert_null(strchr(o, '"'));
    free(o);
}

/* UTF-8 that encodes a UTF-16 surrogate (ED A0 80) is not UTF-8: it goes
 * out as U+FFFD, like any invalid byte, never as the bytes it was. */
static void surrogates_and_invalid_bytes_become_replacement_characters(void **s)
{
    (void)s;
    char *o = utf8_fix("a\xed\xa0\x80z\xc3\x28");
    assert_non_null(o);
    assert_null(strstr(o, "\xed\xa0\x80"));
    assert_non_null(strstr(o, "\xef\xbf\xbd"));
    assert_int_equal(o[0], 'a');
    assert_non_null(strchr(o, 'z'));
    free(o);
}

/* Characters that show nothing yet change how a line reads: bidirectional
 * overrides, embeddings, isolates and marks, and C1 controls (CSI, NEL). */
static const char *const hidden[] = {"\u202e", "\u202a", "\u202b", "\u202c", "\u202d", "\u2066", "\u2067",
                                     "\u2068", "\u2069", "\u200e", "\u200f", "\u061c", "\xc2\x80", "\xc2\x85",
                                     "\xc2\x9b", "\xc2\x9f"};
/* and their neighbours, which are text: kept as they are */
static const char *const shown[] = {"\u202f", "\u2065", "\u206a", "\u200d", "\u061b", "\u00a0", "\u2029", "\u00b5"};

static void md_writer(FILE *f, const char *s) { fputs(md_text(s), f); }
static void fix_writer(FILE *f, const char *s)
{
    char *o = utf8_fix(s);
    assert_non_null(o);
    fputs(o, f);
    free(o);
}

/* Each writer of record text shows each hidden character as a replacement
 * (U+FFFD; '?' in gnuplot), so a row's name cannot be made to read as
 * another's, and keeps the characters beside them. */
static void hidden_characters_read_as_replacements_in_every_format(void **s)
{
    (void)s;
    writer ws[] = {md_writer, html_text, xml_text, csv_text, fix_writer, gp_quote, gp_data_str};
    for (size_t w = 0; w < sizeof ws / sizeof *ws; w++) {
        for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++) {
            char in[32];
            snprintf(in, sizeof in, "ab%sc", hidden[i]);
            char *o = through(ws[w], in);
            if (strstr(o, hidden[i]))
                fail_msg("writer %zu passed hidden character %zu through: %s", w, i, o);
            const char *c = strstr(o, "ab");
            assert_non_null(c);
            /* one replacement for the whole character, however many bytes */
            const char *rep = ws[w] == gp_quote || ws[w] == gp_data_str ? "?" : "\xef\xbf\xbd";
            assert_memory_equal(c + 2, rep, strlen(rep));
            assert_int_equal(c[2 + strlen(rep)], 'c');
            free(o);
        }
        for (size_t i = 0; i < sizeof shown / sizeof *shown; i++) {
            char *o = through(ws[w], shown[i]);
            if (!strstr(o, shown[i]))
                fail_msg("writer %zu changed the text character %zu: %s", w, i, o);
            free(o);
        }
    }
    text_pool_free();
}

/* A code block holds quoted text whole: no line of the text can close its
 * fence (a fence longer than any run of backticks in it), so nothing after
 * it renders as Markdown in a PR comment. */
static void a_code_block_cannot_be_closed_by_its_text(void **s)
{
    (void)s;
    const char *text = "before\n```\n# a heading\n`````\n[link](http://x)\nafter";
    char *out = through(md_code_block, text);
    /* the fence: six backticks (the text's longest run is five) */
    assert_memory_equal(out, "``````text\n", 11);
    size_t fences = 0;
    for (char *line = out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        fences += strncmp(line, "``````", 6) == 0;
    assert_int_equal(fences, 2);
    assert_non_null(strstr(out, "\n`````\n[link](http://x)\nafter\n``````\n"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(markdown_cells_cannot_be_ended_or_marked_up),
        cmocka_unit_test(markdown_text_cannot_mention_reference_or_link),
        cmocka_unit_test(csv_fields_never_run_or_split),
        cmocka_unit_test(xml_and_html_hold_only_what_they_can),
        cmocka_unit_test(surrogates_and_invalid_bytes_become_replacement_characters),
        cmocka_unit_test(hidden_characters_read_as_replacements_in_every_format),
        cmocka_unit_test(a_code_block_cannot_be_closed_by_its_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
