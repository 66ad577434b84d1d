/*
 * Forwarding when libmagma arrives after start-up, by dlopen(RTLD_GLOBAL)
 * (a Python extension, a plugin), which RTLD_NEXT does not see, and when the
 * other width's libtdls_magma is loaded too. Linked against one libtdls_magma
 * only; argv[1] is the other width's library, argv[2] the stand-in libmagma.
 * 1. The other width's library loaded: an unserved queue call is not handed
 *    to it (its arguments would have the wrong width); MAGMA_ERR, and the one
 *    line on stderr is this library's, none the other's.
 * 2. The stand-in loaded as well: the same kind of call reaches it, past the
 *    other width's library loaded before it.
 * Negative control: the captured stderr does hold what is printed to it.
 */
#define _GNU_SOURCE
#include <tdls/magma.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"

#define EXPECTED_CHECKS 8


static int fake_queue_storage;

/* Everything written to stderr since the capture began. */
static char captured[4096];
static void read_capture(FILE* capture) {
    size_t got;
    fflush(stderr);
    rewind(capture);
    got = fread(captured, 1, sizeof captured - 1, capture);
    captured[got] = '\0';
}

int main(int argc, char** argv) {
    const magma_queue_t queue = (magma_queue_t)&fake_queue_storage;
    double a[4] = {1, 2, 3, 4};
    double* dA_array[1];
    magma_int_t pivots[2] = {-1, -1};
    magma_int_t* dipiv_array[1];
    magma_int_t info[1] = {-1};
    FILE* capture = tmpfile();
    void* other;
    void* standin;
    int (*answer)(void) = NULL;

    if (argc != 3 || capture == NULL) {
        printf("usage: %s <other width's libtdls_magma> <stand-in libmagma>\n", argv[0]);
        return 2;
    }
    dA_array[0] = a;
    dipiv_array[0] = pivots;
    if (dup2(fileno(capture), 2) < 0) return 2;

    /* 1. Only the other width's libtdls_magma to forward to. */
    other = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
    CHECK(other != NULL);
    CHECK(magma_dgetrf_batched(2, 1, dA_array, 2, dipiv_array, info, 1, queue) == MAGMA_ERR);
    read_capture(capture);
    CHECK(strstr(captured, THIS_LIBRARY ": magma_dgetrf_batched: not served") != NULL);
    CHECK(strstr(captured, OTHER_LIBRARY ": ") == NULL);
    CHECK(a[0] == 1 && a[3] == 4 && pivots[0] == -1 && info[0] == -1);

    /* 2. The stand-in libmagma, loaded after it. */
    standin = dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL);
    if (standin != NULL) *(void**)&answer = dlsym(standin, "standin_answer");
    CHECK(answer != NULL && magma_dgetrf_batched(2, 1, dA_array, 2, dipiv_array, info, 1, queue) == answer());

    /* Negative control: the capture sees what is printed. */
    fprintf(stderr, OTHER_LIBRARY ": control\n");
    read_capture(capture);
    CHECK(strstr(captured, OTHER_LIBRARY ": control") != NULL);
    CHECK(a[0] == 1 && pivots[0] == -1);

    return check_report("test_magma_loaded_later", EXPECTED_CHECKS);
}
