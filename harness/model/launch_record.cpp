#include "model/launch_record.h"

#include <fmt/format.h>

#include <stdexcept>

namespace wcp {

bool FillValue::operator==(const FillValue& other) const { return count == other.count && item == other.item; }
bool Iteration::operator==(const Iteration& other) const { return fill == other.fill && repeat == other.repeat; }
bool SequenceItem::operator==(const SequenceItem& other) const {
  return kind == other.kind && signature == other.signature && count == other.count && body == other.body &&
         iterations == other.iterations;
}

namespace {

using Kind = SequenceItem::Kind;

bool is_hole(const SequenceItem& item) {
  return item.kind == Kind::hole_count || item.kind == Kind::hole_times || item.kind == Kind::hole_item;
}

// Holes of a template list, depth first: a hole counts once however often an enclosing loop
// repeats (every repetition uses the same fill value). A nested varying loop's holes are its own.
std::size_t holes_in(const std::vector<SequenceItem>& items) {
  std::size_t holes = 0;
  for (const auto& item : items) {
    if (is_hole(item)) ++holes;
    else if (item.kind == Kind::loop) holes += holes_in(item.body);
  }
  return holes;
}

// Adds the launches of `items` (times `times`) to `counts`. `fill`/`next` serve the holes.
void count_list(const std::vector<SequenceItem>& items, std::uint64_t times, const std::vector<FillValue>* fill,
                std::size_t& next, std::vector<std::uint64_t>& counts) {
  for (const auto& item : items) {
    switch (item.kind) {
      case Kind::run:
        counts.at(item.signature) += item.count * times;
        break;
      case Kind::loop:
        count_list(item.body, times * item.count, fill, next, counts);
        break;
      case Kind::varying:
        for (const auto& iteration : item.iterations) {
          std::size_t own = 0;
          count_list(item.body, times * iteration.repeat, &iteration.fill, own, counts);
        }
        break;
      case Kind::hole_count:
        counts.at(item.signature) += fill->at(next++).count * times;
        break;
      case Kind::hole_times: {
        const std::uint64_t inner = fill->at(next++).count;
        std::size_t none = 0;
        count_list(item.body, times * inner, nullptr, none, counts);
        break;
      }
      case Kind::hole_item: {
        std::size_t none = 0;
        count_list(fill->at(next++).item, times, nullptr, none, counts);
        break;
      }
    }
  }
}

std::optional<std::string> check_list(const std::vector<SequenceItem>& items, std::size_t signatures, bool template_,
                                      const std::string& where);

std::optional<std::string> check_item(const SequenceItem& item, std::size_t signatures, bool template_,
                                      const std::string& where) {
  if (is_hole(item) && !template_) return where + ": a hole outside a loop template";
  switch (item.kind) {
    case Kind::run:
    case Kind::hole_count:
      if (item.signature >= signatures) {
        return fmt::format("{}: signature {} is not in the table of {}", where, item.signature, signatures);
      }
      if (item.kind == Kind::run && item.count == 0) return where + ": a run of 0 launches";
      return std::nullopt;
    case Kind::loop:
      if (item.count == 0) return where + ": a loop of 0 times";
      return check_list(item.body, signatures, template_, where + ".loop");
    case Kind::hole_times:
      return check_list(item.body, signatures, false, where + ".loop");
    case Kind::hole_item:
      return std::nullopt;
    case Kind::varying: {
      if (item.iterations.empty()) return where + ": a loop without iterations";
      if (auto problem = check_list(item.body, signatures, true, where + ".loop")) return problem;
      const std::size_t holes = holes_in(item.body);
      std::size_t index = 0;
      for (const auto& iteration : item.iterations) {
        const std::string at = fmt::format("{}.iterations[{}]", where, index++);
        if (iteration.repeat == 0) return at + ": repeated 0 times";
        if (iteration.fill.size() != holes) {
          return fmt::format("{}: {} fill values for a template with {} holes", at, iteration.fill.size(), holes);
        }
        for (const auto& value : iteration.fill) {
          if (!value.item.empty()) {
            if (auto problem = check_list(value.item, signatures, false, at)) return problem;
          }
        }
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_list(const std::vector<SequenceItem>& items, std::size_t signatures, bool template_,
                                      const std::string& where) {
  std::size_t index = 0;
  for (const auto& item : items) {
    if (auto problem = check_item(item, signatures, template_, fmt::format("{}[{}]", where, index++))) return problem;
  }
  return std::nullopt;
}

}  // namespace

void LaunchRecord::append(const LaunchSignature& signature, std::uint64_t count) {
  if (count == 0) return;
  std::uint32_t index = 0;
  while (index < signatures.size() && !(signatures[index] == signature)) ++index;
  if (index == signatures.size()) signatures.push_back(signature);
  if (!sequence.empty() && sequence.back().kind == Kind::run && sequence.back().signature == index) {
    sequence.back().count += count;
    return;
  }
  SequenceItem run;
  run.kind = Kind::run;
  run.signature = index;
  run.count = count;
  sequence.push_back(std::move(run));
}

std::vector<std::uint64_t> launches_per_signature(const LaunchRecord& record) {
  std::vector<std::uint64_t> counts(record.signatures.size(), 0);
  std::size_t next = 0;
  count_list(record.sequence, 1, nullptr, next, counts);
  return counts;
}

std::uint64_t total_launches(const LaunchRecord& record) {
  std::uint64_t total = 0;
  for (auto count : launches_per_signature(record)) total += count;
  return total;
}

LaunchStream::LaunchStream(const LaunchRecord& record) {
  if (!record.sequence.empty()) stack_.push_back(Frame{.items = &record.sequence, .remaining = 1});
}

std::optional<std::pair<std::uint32_t, std::uint64_t>> LaunchStream::next() {
  while (!stack_.empty()) {
    Frame& frame = stack_.back();
    if (frame.index == frame.items->size()) {
      if (frame.remaining > 1) {  // the next repetition of a loop body (same fill)
        --frame.remaining;
        frame.index = 0;
        frame.fill_index = frame.fill_base;
        continue;
      }
      if (frame.varying != nullptr && frame.iteration + 1 < frame.varying->iterations.size()) {
        const auto& iteration = frame.varying->iterations[++frame.iteration];
        frame.index = 0;
        frame.fill = &iteration.fill;
        frame.fill_index = frame.fill_base = 0;
        frame.remaining = iteration.repeat;
        continue;
      }
      stack_.pop_back();
      continue;
    }
    const SequenceItem& item = (*frame.items)[frame.index++];
    switch (item.kind) {
      case Kind::run:
        return std::pair{item.signature, item.count};
      case Kind::loop: {
        // The body shares this template's fill: its holes come next in depth-first order, and
        // every repetition reuses them.
        const std::size_t base = frame.fill_index;
        frame.fill_index += frame.fill != nullptr ? holes_in(item.body) : 0;
        stack_.push_back(Frame{.items = &item.body, .fill = frame.fill, .fill_index = base, .fill_base = base,
                               .remaining = item.count});
        continue;
      }
      case Kind::varying: {
        const auto& first = item.iterations.front();
        stack_.push_back(Frame{.items = &item.body, .fill = &first.fill, .remaining = first.repeat, .varying = &item});
        continue;
      }
      case Kind::hole_count: {
        const std::uint64_t count = frame.fill->at(frame.fill_index++).count;
        if (count > 0) return std::pair{item.signature, count};
        continue;
      }
      case Kind::hole_times: {
        const std::uint64_t times = frame.fill->at(frame.fill_index++).count;
        if (times > 0) stack_.push_back(Frame{.items = &item.body, .remaining = times});
        continue;
      }
      case Kind::hole_item: {
        const auto& value = frame.fill->at(frame.fill_index++);
        stack_.push_back(Frame{.items = &value.item, .remaining = 1});
        continue;
      }
    }
  }
  return std::nullopt;
}

std::vector<std::uint32_t> expand(const LaunchRecord& record) {
  std::vector<std::uint32_t> launches;
  LaunchStream stream(record);
  while (const auto run = stream.next()) launches.insert(launches.end(), run->second, run->first);
  return launches;
}

std::optional<std::string> check_record(const LaunchRecord& record) {
  return check_list(record.sequence, record.signatures.size(), false, "sequence");
}

}  // namespace wcp
