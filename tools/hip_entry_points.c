/* Prints the entry points the hip backend resolves, under the names the HIP
 * headers it is compiled against map them to: "NAME required|optional" per
 * line. make hip-matrix builds it against each release's headers and looks
 * each name up in that release's libamdhip64. */
#include <hip/hip_runtime_api.h>
#include <stdio.h>

#include "hip_syms.h"

#define STR_(x) #x
#define XSTR(x) STR_(x)
#define REQUIRED(n) puts(XSTR(n) " required");
#define OPTIONAL(n) puts(XSTR(n) " optional");

int main(void)
{
    HIP_SYMS(REQUIRED, OPTIONAL)
    return 0;
}
