#pragma once
// The last N bytes of a stream, for error messages: a target that prints gigabytes costs us
// a fixed amount of memory.
#include <cstddef>
#include <string>
#include <string_view>

namespace wcp {

class OutputTail {
 public:
  explicit OutputTail(std::size_t capacity = 16 * 1024) : capacity_(capacity) {}
  void append(std::string_view bytes);
  std::string text() const;  // oldest first; invalid UTF-8 and NULs replaced for display

 private:
  std::size_t capacity_;
  std::string buffer_;  // grows to 2 × capacity, then keeps the newest half
};

// The last non-empty line of some output (for a Python process, its exception), trimmed; ""
// when there is none.
std::string last_line(std::string_view text);

}  // namespace wcp
