#pragma once
// One way of taking machine reference samples (model/reference.h). A runner is set up once per
// command (its generated app or its compiler loaded) and then asked for a sample after each
// command sample, so the two alternate under the same machine conditions.
#include <string>

#include "measure/progress.h"
#include "model/reference.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::reference {

class ReferenceRunner {
 public:
  virtual ~ReferenceRunner() = default;
  virtual ReferenceKind kind() const = 0;
  virtual std::string name() const = 0;         // MachineReference::name
  virtual std::string description() const = 0;  // plain words
  // A failed reference build is not an exception: the sample carries the failure and no cost.
  // Throws Interrupted on Ctrl-C. `progress` hears about any process the sample runs.
  virtual ReferenceSample take(int after_sample, InterruptWatch& interrupts, measure::ProgressListener& progress) = 0;
};

}  // namespace wcp::reference
