# Runs PROGRAM with ARG; passes when it stops (a nonzero exit status, a signal
# or an abort) and its output contains MESSAGE.
execute_process(COMMAND "${PROGRAM}" "${ARG}" RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(result STREQUAL "0")
  message(FATAL_ERROR "${PROGRAM} ${ARG} exited normally; expected a stop with: ${MESSAGE}\n${out}")
endif()
string(FIND "${out}" "${MESSAGE}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${PROGRAM} ${ARG} stopped (${result}) without the message: ${MESSAGE}\n${out}")
endif()
message(STATUS "stopped (${result}) with: ${MESSAGE}")
