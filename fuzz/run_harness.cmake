# One bounded libFuzzer run, as a ctest test (fuzz/CMakeLists.txt):
#   cmake -DHARNESS=<exe> -DNAME=<test> -DCORPUS=<dir> [-DREGRESSIONS=<dir>] -DSCRATCH=<dir>
#         -DSECONDS=<s> [-DEXPECT_ORACLE_FAILURE=ON] -P run_harness.cmake
# The committed corpus, and the past findings in REGRESSIONS where that
# folder exists, are copied to SCRATCH/corpus, where libFuzzer adds what it
# finds (the repository's copy is never written); libFuzzer runs every one of
# them before it mutates, so a finding that comes back fails at once. Crash
# inputs land in SCRATCH/artifacts; the whole log in SCRATCH/log.txt.
file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH}/corpus ${SCRATCH}/artifacts)
file(GLOB seeds ${CORPUS}/*)
list(LENGTH seeds seed_count)
if(seed_count EQUAL 0)
  message(FATAL_ERROR "${NAME}: the corpus ${CORPUS} is empty")
endif()
file(COPY ${seeds} DESTINATION ${SCRATCH}/corpus)
if(REGRESSIONS AND IS_DIRECTORY ${REGRESSIONS})
  file(GLOB findings ${REGRESSIONS}/*)
  file(COPY ${findings} DESTINATION ${SCRATCH}/corpus)
endif()

execute_process(
  COMMAND ${HARNESS} -max_total_time=${SECONDS} -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
          -artifact_prefix=${SCRATCH}/artifacts/ ${SCRATCH}/corpus
  RESULT_VARIABLE result OUTPUT_FILE ${SCRATCH}/log.txt ERROR_FILE ${SCRATCH}/log.txt)
file(READ ${SCRATCH}/log.txt log)

set(executions "?")
if(log MATCHES "stat::number_of_executed_units: ([0-9]+)")
  set(executions ${CMAKE_MATCH_1})
endif()
file(GLOB grown ${SCRATCH}/corpus/*)
list(LENGTH grown grown_count)
message("${NAME}: exit ${result}, ${executions} executions (-max_total_time=${SECONDS}), "
        "corpus ${seed_count} -> ${grown_count} inputs")

string(LENGTH "${log}" length)
if(length GREATER 12000)
  math(EXPR start "${length} - 12000")
  string(SUBSTRING "${log}" ${start} -1 tail)
else()
  set(tail "${log}")
endif()

if(EXPECT_ORACLE_FAILURE)
  # Inverted by WILL_FAIL: a fatal error here is the expected outcome.
  if(NOT result EQUAL 0 AND log MATCHES "tdls-fuzz: oracle failed: [^\n]*")
    message("${NAME}: the planted bug was caught: ${CMAKE_MATCH_0}")
    message(FATAL_ERROR "${NAME}: failed as it must (WILL_FAIL)")
  endif()
  message("${tail}")
  message("${NAME}: the planted bug was NOT caught by the oracle; see ${SCRATCH}/log.txt")
  return()
endif()

if(NOT result EQUAL 0)
  file(GLOB artifacts ${SCRATCH}/artifacts/*)
  message("${tail}")
  message(FATAL_ERROR "${NAME}: finding (exit ${result}); input: ${artifacts}; log: ${SCRATCH}/log.txt\n"
                      "reproduce: ${HARNESS} ${artifacts}")
endif()
