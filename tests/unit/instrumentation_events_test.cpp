// instrument/instrumentation_events.h: the probe's per-process records read back.
#include "instrument/instrumentation_events.h"

#include <gtest/gtest.h>

namespace wcp::instrument {
namespace {

TEST(InstrumentationEvents, AnEntryModuleRunWithDashMIsNamedByTheExitRecord) {
  // At start, `python -m pkg.app` has argv ["-m"] and no __main__ module yet; at exit the probe
  // knows the module runpy ran.
  InstrumentationEvents run;
  const ProcessEvents module_run = parse_process_events(
      R"({"type":"process","pid":7,"t":1.0,"argv":["-m"],"main":null}
{"type":"exit","pid":7,"t":2.0,"how":"atexit","main":"pkg.app"}
)",
      run);
  ASSERT_TRUE(module_run.main.has_value());
  EXPECT_EQ(*module_run.main, "pkg.app");
  // A script named at start keeps that name.
  const ProcessEvents script = parse_process_events(
      R"({"type":"process","pid":8,"t":1.0,"argv":["app.py"],"main":"/work/app.py"}
{"type":"exit","pid":8,"t":2.0,"how":"atexit","main":"/elsewhere.py"}
)",
      run);
  EXPECT_EQ(script.main, "/work/app.py");
}

}  // namespace
}  // namespace wcp::instrument
