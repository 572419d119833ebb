/* Fuzz target (libFuzzer) for the path configuration parser
 * (sim/app/config.c, on sim/app/ini_lines.c): the input, NUL-terminated, is
 * the text of one INI file given to config_load_string; what loads is then
 * validated. A text may be refused with a message, never crash, leak or
 * hang. Seeds: the .ini files of configs/. Built with clang
 * -fsanitize=fuzzer,address,undefined by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static config_t c; /* (large: not on the stack) */
    config_init(&c);
    char err[1024] = "";
    if (config_load_string(&c, "fuzz.ini", text, err, sizeof err) == 0)
        config_validate(&c, err, sizeof err);
    else if (!err[0]) {
        fprintf(stderr, "config_fuzz: refused without a message\n");
        abort();
    }
    free(text);
    return 0;
}
