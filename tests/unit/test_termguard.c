/* The terminal guard: what a tool prints can neither command a terminal
 * nor turn a line around, and text passes through unchanged, even a
 * character that reaches the filter in two writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "opts.h"
#include "termguard.h"

/* s through the filter in one piece: the text it prints, none held. */
static char *clean(const char *s)
{
    static char buf[256];
    size_t n = strlen(s), held;
    assert_true(n < sizeof buf); /* a longer case needs a bigger buffer, never a cut one */
    memcpy(buf, s, n);
    size_t out = ha_term_clean((unsigned char *)buf, n, &held);
    assert_int_equal(held, 0);
    buf[out] = 0;
    return buf;
}

static void controls_and_hidden_characters_print_as_question_marks(void **s)
{
    (void)s;
    /* ESC starts every terminal command; CR and BS overwrite what was shown */
    assert_string_equal(clean("a\x1b[2Jb\x1b]0;title\x07"), "a?[2Jb?]0;title?");
    assert_string_equal(clean("shown\rhidden\bx\x7f"), "shown?hidden?x?");
    /* C1 controls, as UTF-8 and as the raw bytes 8-bit terminals obey */
    assert_string_equal(clean("a\xc2\x9b" "31mb\xc2\x85" "c\x9b" "d"), "a?31mb?c?d");
    /* bidirectional formatting, overrides to isolates and marks */
    assert_string_equal(clean("x\u202ey\u2066z\u2069w\u200f\u061cv"), "x?y?z?w??v");
    /* invalid UTF-8: a stray continuation, an overlong form, a surrogate */
    assert_string_equal(clean("a\x80" "b\xc0\xaf" "c\xed\xa0\x80" "d"), "a?b??c???d");
    /* overlong three- and four-byte forms, and past U+10FFFF */
    assert_string_equal(clean("e\xe0\x80\xaf" "f\xf0\x8f\xbf\xbf" "g\xf4\x90\x80\x80" "h"), "e???f????g????h");
}

static void text_passes_unchanged(void **s)
{
    (void)s;
    const char *t = "tab\tnewline\n µs ✔ 😀 \u00a0 \u200d \u202f café";
    assert_string_equal(clean(t), t);
}

/* run_all.sh reads the bench's side B (--ab-side-b) as NUL-separated
 * words: NUL passes (a terminal ignores it). */
static void nul_separated_output_keeps_its_separators(void **s)
{
    (void)s;
    unsigned char buf[] = "env:A=1\0--kind\0x\0";
    size_t held, n = ha_term_clean(buf, sizeof buf - 1, &held);
    assert_int_equal(n, sizeof buf - 1);
    assert_memory_equal(buf, "env:A=1\0--kind\0x\0", n);
}

/* stdio may hand the filter a character in pieces (a full buffer, a byte
 * at a time): the start is held until the rest comes, then judged whole. */
static void a_character_in_two_writes_is_judged_whole(void **s)
{
    (void)s;
    unsigned char buf[16];
    size_t held;
    memcpy(buf, "ab\xe2\x80", 4);
    assert_int_equal(ha_term_clean(buf, 4, &held), 2);
    assert_int_equal(held, 2);
    memcpy(buf, "\xe2\x80\xae" "c", 4); /* the held bytes again, then the rest: U+202E */
    assert_int_equal(ha_term_clean(buf, 4, &held), 2);
    assert_int_equal(held, 0);
    assert_memory_equal(buf, "?c", 2);
    memcpy(buf, "\xe2\x9c", 2);
    assert_int_equal(ha_term_clean(buf, 2, &held), 0);
    assert_int_equal(held, 2);
    memcpy(buf, "\xe2\x9c\x94", 3); /* U+2714, text */
    assert_int_equal(ha_term_clean(buf, 3, &held), 3);
    assert_memory_equal(buf, "\xe2\x9c\x94", 3);
    /* a start that cannot become valid is not held */
    memcpy(buf, "a\xe2z", 3);
    assert_int_equal(ha_term_clean(buf, 3, &held), 3);
    assert_int_equal(held, 0);
    assert_memory_equal(buf, "a?z", 3);
}

static char *slurp(const char *path)
{
    static char buf[1024];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* A child made like a tool: its stdout and stderr into files, its command
 * line parsed (which puts the guard up), then hostile text printed. */
static void every_tool_prints_through_the_guard(void **s)
{
    (void)s;
    char out[] = "/tmp/ha-termguard-out-XXXXXX", err[] = "/tmp/ha-termguard-err-XXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    assert_true(fo >= 0 && fe >= 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
            _exit(90);
        static const ha_opt none[] = {{NULL, 0, 0, 0, NULL, NULL, NULL, NULL}};
        static const ha_cli cli = {"t", "", "a tool", none, 0, 0, NULL};
        char *argv[] = {"t", "--bad\x1b]0;owned\x07", NULL};
        if (ha_cli_parse(&cli, 2, argv, NULL, &(int){0}) != 2)
            _exit(91);
        printf("run r\x1b[2J\u202e" "evil\n");
        const char *tick = "\xe2\x9c\x94";
        for (int i = 0; i < 3; i++) /* one byte a write: stderr has no buffer */
            fputc(tick[i], stderr);
        fputs("\xe2\x80", stderr);
        fputs("\xae|\n\xe2", stderr); /* U+202E across two writes; a start cut off at exit */
        exit(0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_string_equal(slurp(out), "run r?[2J?evil\n");
    const char *e = slurp(err);
    if (!strstr(e, "t: unknown option '--bad?]0;owned?'"))
        fail_msg("the parser's own error was not guarded: %s", e);
    assert_non_null(strstr(e, "\xe2\x9c\x94?|\n?"));
    assert_null(strchr(e, '\x1b'));
    unlink(out);
    unlink(err);
    close(fo);
    close(fe);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(controls_and_hidden_characters_print_as_question_marks),
        cmocka_unit_test(text_passes_unchanged),
        cmocka_unit_test(nul_separated_output_keeps_its_separators),
        cmocka_unit_test(a_character_in_two_writes_is_judged_whole),
        cmocka_unit_test(every_tool_prints_through_the_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
