#include "io/common_text.h"

#include <algorithm>
#include <cctype>

namespace wcp {

TextShape shape_of(const std::string& text) {
  TextShape shape;
  shape.text.emplace_back();
  for (std::size_t at = 0; at < text.size();) {
    if (std::isdigit(static_cast<unsigned char>(text[at]))) {
      std::size_t end = at;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
      shape.numbers.push_back(text.substr(at, end - at));
      shape.text.emplace_back();
      at = end;
    } else {
      shape.text.back() += text[at++];
    }
  }
  return shape;
}

std::string listed(const std::vector<std::string>& values) {
  std::vector<std::string> distinct;
  for (const auto& value : values) {
    if (std::find(distinct.begin(), distinct.end(), value) == distinct.end()) distinct.push_back(value);
  }
  std::string text = distinct.front();
  for (std::size_t at = 1; at < distinct.size(); ++at)
    text += (at + 1 == distinct.size() ? " and " : ", ") + distinct[at];
  return text;
}

std::string common_text(const std::vector<std::string>& texts) {
  if (texts.empty()) return "";
  if (std::all_of(texts.begin(), texts.end(), [&](const std::string& text) { return text == texts.front(); }))
    return texts.front();
  std::vector<TextShape> shapes;
  for (const auto& text : texts) {
    shapes.push_back(shape_of(text));
    if (shapes.back().text != shapes.front().text) return "";  // so every shape has as many numbers
  }
  std::vector<std::size_t> varying;
  for (std::size_t position = 0; position < shapes.front().numbers.size(); ++position) {
    for (const auto& shape : shapes) {
      if (shape.numbers[position] != shapes.front().numbers[position]) {
        varying.push_back(position);
        break;
      }
    }
  }
  if (varying.size() != 1) return "";
  // Only a number of its own (a line, a count) is listed; one inside a name ("make_10__locals__k",
  // a hash) would be listed as a broken name.
  const auto part_of_a_name = [](const std::string& text, bool at_end) {
    if (text.empty()) return false;
    const auto next = static_cast<unsigned char>(at_end ? text.back() : text.front());
    return std::isalnum(next) || next == '_';
  };
  const TextShape& first = shapes.front();
  if (part_of_a_name(first.text[varying.front()], true) || part_of_a_name(first.text[varying.front() + 1], false))
    return "";
  std::vector<std::string> values;
  for (const auto& shape : shapes) values.push_back(shape.numbers[varying.front()]);
  std::string text = first.text.front();
  for (std::size_t position = 0; position < first.numbers.size(); ++position) {
    text += position == varying.front() ? listed(values) : first.numbers[position];
    text += first.text[position + 1];
  }
  return text;
}

}  // namespace wcp
