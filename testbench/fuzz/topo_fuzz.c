/* Fuzz target (libFuzzer) for the topology file parser
 * (sim/app/topo_file.c, on sim/app/ini_lines.c and sim/net/topo.c): the
 * input, NUL-terminated, is the text of a topology file given to
 * topo_load_text, which checks the topology and fills in its routes. A text
 * may be refused with a message, never crash, leak or hang. Seeds: the
 * .ini files of configs/topo/. Built with clang
 * -fsanitize=fuzzer,address,undefined by `make fuzz`. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static topo_file_t tf; /* (large: not on the stack) */
    memset(&tf, 0, sizeof tf);
    char err[1024] = "";
    if (topo_load_text(&tf, "fuzz.ini", text, err, sizeof err) != 0 && !err[0]) {
        fprintf(stderr, "topo_fuzz: refused without a message\n");
        abort();
    }
    free(text);
    return 0;
}
