#pragma once
// A lever in the words its ledger row names it by: the option and where it is set, as a
// user would write it ("wp.config.enable_backward = False", "module option enable_backward =
// False on wp___main__", "module=\"unique\" dropped on 2 kernels", "wp.clear_kernel_cache()
// made a no-op"). The exact line to take it is the lever's own take_it.
#include <string>

#include "model/lever.h"

namespace wcp::results {

std::string lever_option_text(const Lever& lever);

}  // namespace wcp::results
