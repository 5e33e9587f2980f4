#include "facts/clock_facts.h"

#include "facts/queries.h"

namespace wcp {

ClockFacts clock_facts(const Report& report) {
  return {credited_compile_elapsed(report), elapsed_left_out(report), warm_near_zero(report), builds_overlapped(report),
          compiled_nothing(report)};
}

}  // namespace wcp
