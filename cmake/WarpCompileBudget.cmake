# warp_add_compile_budgets(<budget.yaml | directory>
#                          [LABELS label...]
#                          [ENVIRONMENT VAR=value...]
#                          [WILL_FAIL] [MUST_BREAK key...] [FAIL_ON_IMPROVEMENT]
#                          [CLI <target or path>])
#
# Registers one CTest test per command entry of a budget file (every *.yaml / *.yml of a
# directory), named compile-budget/<file stem>/<entry name>, labelled `compile-budget` plus
# LABELS, RUN_SERIAL (timings must not share the machine), with TIMEOUT = samples x 2 runs x
# timeout + 60 s, and SKIP_RETURN_CODE 77 so a `device: cuda` entry on a machine without a
# CUDA device is reported as not run, never as passed. ENVIRONMENT is set for the tests (and
# for listing them): pass WCP_PYTHON=... so `${WCP_PYTHON}` in the file names your
# interpreter. CLI defaults to the warp-compile-probe target of this build, else the imported
# WarpCompileProbe::warp-compile-probe of find_package(WarpCompileProbe).
#
# WILL_FAIL and MUST_BREAK register every entry as a test that must break its budgets, to prove
# a gate bites, and it must break them for the right reason: the test passes only when `check`
# measured the command and exited 1 with a failed budget (WILL_FAIL: any budget; MUST_BREAK
# key...: every key listed, e.g. MUST_BREAK max_builds_per_module). A command that could not be
# measured (it crashed, every sample failed, Warp is broken), a configuration error, or a named
# budget that held fails the test, with the reason in its output. Such a test runs `check`
# through cmake -P WarpCompileBudgetMustBreak.cmake (beside this file), which reads check's
# --json result; it needs CMake 3.19. (Before, WILL_FAIL passed on any non-zero exit: a crash
# passed as a gate that bites.)
#
# How entries are enumerated, and why: at configure time the CLI may not be built yet (in this
# project's own tree it is built by the same build), and parsing YAML with CMake string
# operations would accept files the tool rejects. So configure only writes a small CTest
# include file (TEST_INCLUDE_FILES) that, whenever ctest reads the test list, runs
# `warp-compile-probe check FILE --list` and registers the tests from its output. Edits to a
# budget file therefore show up at the next ctest run with no re-configure; the file is still
# a configure dependency so a build also notices. A file the tool rejects becomes one failing
# test, compile-budget/<stem>/configuration, whose output is the FILE:LINE error; a CLI that
# is not built yet becomes a failing compile-budget/<stem>/NOT_BUILT test.
#
# Each test prints its budgets' figures as <CTestMeasurement> lines (check --ctest-measurements),
# so `ctest -D Experimental` (or any CDash submission) charts them per test over builds, and
# `ctest -L compile-budget -V` shows them.
#
# This file only defines functions, so ctest can include it too.

function(warp_add_compile_budgets path)
  cmake_parse_arguments(PARSE_ARGV 1 arg "WILL_FAIL;FAIL_ON_IMPROVEMENT" "CLI" "LABELS;ENVIRONMENT;MUST_BREAK")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "warp_add_compile_budgets: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  list(FIND arg_KEYWORDS_MISSING_VALUES MUST_BREAK must_break_without_keys)
  if(must_break_without_keys GREATER -1)
    message(FATAL_ERROR "warp_add_compile_budgets: MUST_BREAK needs the budget keys that must fail (e.g. max_builds_per_module)")
  endif()
  foreach(key IN LISTS arg_MUST_BREAK)
    if(NOT key MATCHES "^[a-z_]+$")
      message(FATAL_ERROR "warp_add_compile_budgets: MUST_BREAK '${key}' is not a budget key (docs/budgets.md#budgets)")
    endif()
  endforeach()
  get_filename_component(path "${path}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(IS_DIRECTORY "${path}")
    file(GLOB files CONFIGURE_DEPENDS "${path}/*.yaml" "${path}/*.yml")
    list(SORT files)
  elseif(EXISTS "${path}")
    set(files "${path}")
  else()
    message(FATAL_ERROR "warp_add_compile_budgets: ${path} does not exist")
  endif()

  if(arg_CLI AND TARGET "${arg_CLI}")
    set(cli "$<TARGET_FILE:${arg_CLI}>")
  elseif(arg_CLI)
    set(cli "${arg_CLI}")
  elseif(TARGET warp-compile-probe)
    set(cli "$<TARGET_FILE:warp-compile-probe>")
  elseif(TARGET WarpCompileProbe::warp-compile-probe)
    set(cli "$<TARGET_FILE:WarpCompileProbe::warp-compile-probe>")
  else()
    message(FATAL_ERROR "warp_add_compile_budgets: no warp-compile-probe: call find_package(WarpCompileProbe) or pass CLI")
  endif()

  set(labels compile-budget ${arg_LABELS})
  set(extra_args "")
  if(arg_FAIL_ON_IMPROVEMENT)
    list(APPEND extra_args --fail-on-improvement)
  endif()
  set(will_fail FALSE)
  if(arg_WILL_FAIL OR arg_MUST_BREAK)
    set(will_fail TRUE)
    if(CMAKE_VERSION VERSION_LESS 3.19)
      message(FATAL_ERROR "warp_add_compile_budgets: WILL_FAIL and MUST_BREAK need CMake 3.19 (string(JSON)); this is ${CMAKE_VERSION}")
    endif()
  endif()
  # Budget keys and check's arguments hold no ",", so it can stand in for ";" on the way through.
  string(REPLACE ";" "," must_break "${arg_MUST_BREAK}")
  set(must_break_runner "${CMAKE_COMMAND};${CMAKE_CURRENT_FUNCTION_LIST_DIR}/WarpCompileBudgetMustBreak.cmake")
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  enable_testing()

  foreach(file IN LISTS files)
    get_filename_component(stem "${file}" NAME_WE)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
    set(base "${CMAKE_CURRENT_BINARY_DIR}/compile_budgets/${stem}")
    set(content "include([==[${CMAKE_CURRENT_FUNCTION_LIST_FILE}]==])\n_warp_compile_budgets_register(\n  [==[${cli}]==]\n  [==[${file}]==]\n  [==[compile-budget/${stem}]==]\n  [==[${labels}]==]\n  [==[${arg_ENVIRONMENT}]==]\n  ${will_fail}\n  [==[${extra_args}]==]\n  [==[${must_break}]==]\n  [==[${must_break_runner}]==]\n  [==[${base}]==])\n")
    if(multi_config)
      # One list per configuration, since the CLI's path differs; ctest picks the one it runs.
      file(GENERATE OUTPUT "${base}-$<CONFIG>.cmake" CONTENT "${content}")
      file(WRITE "${base}.cmake" "include(\"${base}-\${CTEST_CONFIGURATION_TYPE}.cmake\" OPTIONAL)\n")
    else()
      file(GENERATE OUTPUT "${base}.cmake" CONTENT "${content}")
    endif()
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${base}.cmake")
  endforeach()
endfunction()

# Runs inside ctest (from the generated include file): lists the entries and adds the tests.
function(_warp_compile_budgets_register cli file prefix labels environment will_fail extra_args must_break runner work_dir)
  if(NOT EXISTS "${cli}")
    add_test("${prefix}/NOT_BUILT" "${prefix}/NOT_BUILT")
    set_tests_properties("${prefix}/NOT_BUILT" PROPERTIES LABELS "${labels}")
    return()
  endif()

  # The listing validates the file against the same environment the tests get (the program
  # and baselines must exist), and ctest's own environment is restored afterwards.
  set(restore "")
  foreach(assignment IN LISTS environment)
    string(FIND "${assignment}" "=" equals)
    string(SUBSTRING "${assignment}" 0 ${equals} variable)
    math(EXPR value_start "${equals} + 1")
    string(SUBSTRING "${assignment}" ${value_start} -1 value)
    if(DEFINED ENV{${variable}})
      list(APPEND restore "${variable}")
      set(saved_${variable} "$ENV{${variable}}")
    endif()
    set(ENV{${variable}} "${value}")
  endforeach()
  execute_process(COMMAND "${cli}" check "${file}" --list
                  OUTPUT_VARIABLE listing ERROR_VARIABLE error RESULT_VARIABLE status)
  foreach(assignment IN LISTS environment)
    string(FIND "${assignment}" "=" equals)
    string(SUBSTRING "${assignment}" 0 ${equals} variable)
    list(FIND restore "${variable}" saved_index)  # not IN_LIST: ctest runs this without policies set
    if(saved_index GREATER -1)
      set(ENV{${variable}} "${saved_${variable}}")
    else()
      unset(ENV{${variable}})
    endif()
  endforeach()

  if(NOT status EQUAL 0)
    # Re-running the listing as the test shows the FILE:LINE error in the test's output.
    add_test("${prefix}/configuration" "${cli}" check "${file}" --list)
    set_tests_properties("${prefix}/configuration" PROPERTIES LABELS "${labels}" ENVIRONMENT "${environment}")
    return()
  endif()

  # Entry names are restricted to [A-Za-z0-9_.+-], so "," can stand in for the ";" separator.
  string(REPLACE ";" "," listing "${listing}")
  string(REPLACE "\n" ";" lines "${listing}")
  foreach(line IN LISTS lines)
    if(line STREQUAL "")
      continue()
    endif()
    string(REPLACE "," ";" fields "${line}")
    list(GET fields 0 name)
    list(GET fields 1 samples)
    list(GET fields 2 timeout)
    math(EXPR test_timeout "${samples} * 2 * ${timeout} + 60")
    if(will_fail)
      # Must break for the right reason: WarpCompileBudgetMustBreak.cmake runs check and reads its result.
      list(GET runner 0 cmake_command)
      list(GET runner 1 must_break_script)
      string(REPLACE ";" "," extra "${extra_args}")
      add_test("${prefix}/${name}" "${cmake_command}" "-DWCP_CLI=${cli}" "-DWCP_FILE=${file}" "-DWCP_ENTRY=${name}"
               "-DWCP_JSON=${work_dir}/${name}.json" "-DWCP_MUST_BREAK=${must_break}" "-DWCP_EXTRA_ARGS=${extra}"
               -P "${must_break_script}")
      set_tests_properties("${prefix}/${name}" PROPERTIES SKIP_REGULAR_EXPRESSION "warp_add_compile_budgets: NOT RUN")
    else()
      add_test("${prefix}/${name}" "${cli}" check "${file}" --only "${name}" --ctest-measurements ${extra_args})
      set_tests_properties("${prefix}/${name}" PROPERTIES SKIP_RETURN_CODE 77)
    endif()
    set_tests_properties("${prefix}/${name}" PROPERTIES
      LABELS "${labels}"
      RUN_SERIAL TRUE
      TIMEOUT ${test_timeout}
      ENVIRONMENT "${environment}")
  endforeach()
endfunction()
