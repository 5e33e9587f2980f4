#pragma once
// A budget check's figures as CTest measurements: one
//   <CTestMeasurement type="numeric/double" name="cold_units">3.41</CTestMeasurement>
// per budget that measured something, printed in the test's output, where CTest picks them up
// for its Test.xml, so `ctest -D Experimental` and CDash chart each budget per test over builds.
// A budget that measured nothing prints nothing (a missing figure is not a zero on a chart).
#include <iosfwd>

#include "budget/budget_result.h"

namespace wcp::render {

void render_ctest_measurements(const budget::CommandResult& result, std::ostream& out);

}  // namespace wcp::render
