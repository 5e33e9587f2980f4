# Runs one compile-budget entry that must break its budgets (warp_add_compile_budgets WILL_FAIL or
# MUST_BREAK, cmake/WarpCompileBudget.cmake) and passes only when it breaks them for the right
# reason: `check` measured the command and exited 1, and its JSON result has a failing outcome
# for every key of MUST_BREAK (for at least one budget when MUST_BREAK is empty). A command that
# could not be measured (it crashed, every sample failed, Warp is broken), any other exit code,
# or a named budget that held fails the test and says which. A command skipped for want of a
# CUDA device prints the NOT RUN line the test's SKIP_REGULAR_EXPRESSION matches.
#
#   cmake -DWCP_CLI=… -DWCP_FILE=… -DWCP_ENTRY=… -DWCP_JSON=… [-DWCP_MUST_BREAK=key,key]
#         [-DWCP_EXTRA_ARGS=arg,arg] -P WarpCompileBudgetMustBreak.cmake
cmake_minimum_required(VERSION 3.19)  # string(JSON)

string(REPLACE "," ";" must_break "${WCP_MUST_BREAK}")
string(REPLACE "," ";" extra_args "${WCP_EXTRA_ARGS}")
if(must_break)
  string(REPLACE ";" ", " wanted "${must_break}")
  set(wanted "must break ${wanted}")
else()
  set(wanted "must break a budget")
endif()

get_filename_component(json_dir "${WCP_JSON}" DIRECTORY)
file(MAKE_DIRECTORY "${json_dir}")
file(REMOVE "${WCP_JSON}")  # a result left by an earlier run must not count
execute_process(COMMAND "${WCP_CLI}" check "${WCP_FILE}" --only "${WCP_ENTRY}" --ctest-measurements --json "${WCP_JSON}"
                        ${extra_args}
                RESULT_VARIABLE status)

if(status STREQUAL "77")
  message("warp_add_compile_budgets: NOT RUN: '${WCP_ENTRY}' needs a device this machine lacks")
  return()
endif()
if(NOT status STREQUAL "1")
  if(status STREQUAL "0")
    set(why "every budget held, so the gate did not bite")
  elseif(status STREQUAL "2")
    set(why "check exited 2: a configuration or usage error (above), nothing was measured")
  else()
    set(why "check ended with '${status}', not with a failed budget (exit 1)")
  endif()
  message(FATAL_ERROR "'${WCP_ENTRY}' ${wanted}, but ${why}")
endif()
if(NOT EXISTS "${WCP_JSON}")
  message(FATAL_ERROR "'${WCP_ENTRY}' ${wanted}: check exited 1 but wrote no result to ${WCP_JSON}")
endif()

file(READ "${WCP_JSON}" result)
string(JSON command GET "${result}" commands 0)
string(JSON run_failure ERROR_VARIABLE no_run_failure GET "${command}" run_failure)
if(NOT no_run_failure)
  message(FATAL_ERROR "'${WCP_ENTRY}' ${wanted}, but the command could not be measured (${run_failure}): "
                      "that is the command failing, not a budget breaking")
endif()

set(failed "")
set(held "")
string(JSON count LENGTH "${command}" outcomes)
if(count GREATER 0)
  math(EXPR last "${count} - 1")
  foreach(index RANGE ${last})
    string(JSON budget GET "${command}" outcomes ${index} budget)
    string(JSON verdict GET "${command}" outcomes ${index} verdict)
    if(verdict STREQUAL "fail")
      list(APPEND failed "${budget}")
    else()
      list(APPEND held "${budget} (${verdict})")
    endif()
  endforeach()
endif()
string(REPLACE ";" ", " failed_text "${failed}")
string(REPLACE ";" ", " held_text "${held}")
if(NOT failed_text)
  set(failed_text "none")
endif()
if(NOT held_text)
  set(held_text "none")
endif()

set(missing "")
foreach(key IN LISTS must_break)
  list(FIND failed "${key}" at)
  if(at EQUAL -1)
    list(APPEND missing "${key}")
  endif()
endforeach()
if(missing OR NOT failed)
  string(REPLACE ";" ", " missing_text "${missing}")
  if(NOT missing_text)
    set(missing_text "any budget")
  endif()
  message(FATAL_ERROR "'${WCP_ENTRY}' ${wanted}, but ${missing_text} did not fail (failed: ${failed_text}; held: "
                      "${held_text})")
endif()
message("warp_add_compile_budgets: '${WCP_ENTRY}' broke as required (failed: ${failed_text})")
