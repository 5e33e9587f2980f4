#pragma once
// The one place times and sizes become text. Three millisecond roundings exist because the
// texts that print them are checked byte for byte; each says where it is used and why.
#include <cstdint>
#include <string>

namespace wcp {

// Findings' evidence (analysis/): seconds from 10 s, whole ms from 10 ms, tenths below, where
// one digit still matters.
std::string milliseconds_text(double ms);

// Estimates in the diagnosis text (render/): seconds from 10 s, else whole ms; an estimate
// claims no tenths.
std::string whole_milliseconds_text(double ms);

// Verdict reasons (verdict/): always tenths of a ms, so a band reads on the scale of its delta.
std::string tenths_milliseconds_text(double ms);

// A clock's reading in a verdict's "from → to" (verdict/): hundredths of a second from 1 s, else
// whole ms, so that "1.89 s → 2.14 s" reads at a glance beside the exact delta.
std::string reading_text(double ms);

// "512 B", "1.5 KiB", "2.0 MiB".
std::string bytes_text(std::uint64_t bytes);

}  // namespace wcp
