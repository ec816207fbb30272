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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(markdown_cells_cannot_be_ended_or_marked_up),
        cmocka_unit_test(markdown_text_cannot_mention_reference_or_link),
        cmocka_unit_test(csv_fields_never_run_or_split),
        cmocka_unit_test(xml_and_html_hold_only_what_they_can),
        cmocka_unit_test(surrogates_and_invalid_bytes_become_replacement_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
