#pragma once
// Several texts that may say the same thing but for a number (a line, a count): the shape they
// share and, where they differ in one number only, one text that lists its values ("before
// stages.py:10, 30 and 21"). Findings' fixes are grouped by shape (analysis/finding_groups.h)
// and a group's lines are phrased once (render/finding_text.h).
#include <string>
#include <vector>

namespace wcp {

// A text split where it may differ per member: the parts between its digit runs, and the runs.
struct TextShape {
  std::vector<std::string> text;     // text.size() == numbers.size() + 1
  std::vector<std::string> numbers;  // digit runs, in order
};

TextShape shape_of(const std::string& text);

// "10, 30 and 21": each distinct value once, in the order given. `values` is not empty.
std::string listed(const std::vector<std::string>& values);

// One text that holds for every one of `texts`: theirs when they agree; when they differ in one
// number only, with that number's values listed; otherwise "" (two numbers that vary would list
// values whose pairing the reader cannot see, and a name or a hash carries digits of its own).
std::string common_text(const std::vector<std::string>& texts);

}  // namespace wcp
