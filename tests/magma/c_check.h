/* The checks of the C test programs in tests/magma: CHECK counts a passed or
 * failed condition (printing each failure), check_report prints the tally
 * and gives the exit status: 0 only when every check passed and exactly the
 * expected number ran (a floor that a skipped block cannot pass). */
#ifndef TDLS_TESTS_MAGMA_C_CHECK_H
#define TDLS_TESTS_MAGMA_C_CHECK_H

#include <stdio.h>

static int check_passed = 0;
static int check_failed = 0;

#define CHECK(condition)                                                                                     \
    do {                                                                                                     \
        if (condition) {                                                                                     \
            ++check_passed;                                                                                  \
        } else {                                                                                             \
            ++check_failed;                                                                                  \
            printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #condition);                                    \
        }                                                                                                    \
    } while (0)

static int check_report(const char* program, int expected) {
    printf("%s: %d of %d checks passed (expected %d)\n", program, check_passed, check_passed + check_failed,
           expected);
    return check_failed == 0 && check_passed == expected ? 0 : 1;
}

#endif
