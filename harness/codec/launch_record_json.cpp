#include "codec/launch_record_json.h"

#include "io/json_fields.h"

namespace wcp {

using nlohmann::json;
using json_fields::FieldError;
using json_fields::get;
using Kind = SequenceItem::Kind;

namespace {

constexpr const char* kHole = "?";

bool is_hole_marker(const json& value) { return value.is_string() && value.get<std::string>() == kHole; }

std::uint64_t positive(const json& value, const char* what) {
  if (!value.is_number_unsigned() || value.get<std::uint64_t>() == 0) {
    throw FieldError(std::string(what) + " must be a whole number >= 1, got " + value.dump());
  }
  return value.get<std::uint64_t>();
}

std::uint32_t signature_index(const json& value) {
  if (!value.is_number_unsigned() || value.get<std::uint64_t>() > 0xffffffffu) {
    throw FieldError("a signature index must be a whole number >= 0, got " + value.dump());
  }
  return static_cast<std::uint32_t>(value.get<std::uint64_t>());
}

json item_to_json(const SequenceItem& item);

json list_to_json(const std::vector<SequenceItem>& items) {
  json list = json::array();
  for (const auto& item : items) list.push_back(item_to_json(item));
  return list;
}

json item_to_json(const SequenceItem& item) {
  switch (item.kind) {
    case Kind::run:
      return item.count == 1 ? json(item.signature) : json::array({item.signature, item.count});
    case Kind::loop:
      return json{{"loop", list_to_json(item.body)}, {"times", item.count}};
    case Kind::varying: {
      json iterations = json::array();
      for (const auto& iteration : item.iterations) {
        json fill = json::array();
        for (const auto& value : iteration.fill) {
          fill.push_back(value.item.empty() ? json(value.count) : item_to_json(value.item.front()));
        }
        iterations.push_back(json::array({fill, iteration.repeat}));
      }
      return json{{"loop", list_to_json(item.body)}, {"iterations", iterations}};
    }
    case Kind::hole_count:
      return json::array({item.signature, kHole});
    case Kind::hole_times:
      return json{{"loop", list_to_json(item.body)}, {"times", kHole}};
    case Kind::hole_item:
      return kHole;
  }
  return nullptr;
}

SequenceItem item_from_json(const json& value, bool template_);

// The kinds of a template's holes, in fill order (depth first; a nested exact loop's holes
// are the template's, a nested varying loop's are its own). A fill value is read by its hole's
// kind: a bare number fills a count, but for a whole-item hole it is a single launch.
void hole_kinds(const std::vector<SequenceItem>& items, std::vector<Kind>& kinds) {
  for (const auto& item : items) {
    if (item.kind == Kind::hole_count || item.kind == Kind::hole_times || item.kind == Kind::hole_item) {
      kinds.push_back(item.kind);
    } else if (item.kind == Kind::loop) {
      hole_kinds(item.body, kinds);
    }
  }
}

std::vector<SequenceItem> list_from_json(const json& value, bool template_) {
  if (!value.is_array()) throw FieldError("a loop body must be a list, got " + value.dump());
  std::vector<SequenceItem> items;
  items.reserve(value.size());
  for (const auto& element : value) items.push_back(item_from_json(element, template_));
  return items;
}

SequenceItem item_from_json(const json& value, bool template_) {
  SequenceItem item;
  if (value.is_number()) {
    item.kind = Kind::run;
    item.signature = signature_index(value);
    item.count = 1;
  } else if (is_hole_marker(value)) {
    if (!template_) throw FieldError("a hole (\"?\") outside a loop template");
    item.kind = Kind::hole_item;
  } else if (value.is_array()) {
    if (value.size() != 2) throw FieldError("a run must be [signature, count], got " + value.dump());
    item.signature = signature_index(value[0]);
    if (is_hole_marker(value[1])) {
      if (!template_) throw FieldError("a hole (\"?\") outside a loop template");
      item.kind = Kind::hole_count;
    } else {
      item.kind = Kind::run;
      item.count = positive(value[1], "a run's count");
    }
  } else if (value.is_object()) {
    const auto body = value.find("loop");
    if (body == value.end()) throw FieldError("a loop needs 'loop', got " + value.dump());
    if (const auto times = value.find("times"); times != value.end()) {
      if (is_hole_marker(*times)) {
        if (!template_) throw FieldError("a hole (\"?\") outside a loop template");
        item.kind = Kind::hole_times;
        item.body = list_from_json(*body, false);  // a hole's own body has no holes
      } else {
        item.kind = Kind::loop;
        item.count = positive(*times, "a loop's times");
        item.body = list_from_json(*body, template_);
      }
    } else if (const auto iterations = value.find("iterations"); iterations != value.end()) {
      item.kind = Kind::varying;
      item.body = list_from_json(*body, true);
      std::vector<Kind> kinds;
      hole_kinds(item.body, kinds);
      if (!iterations->is_array() || iterations->empty()) throw FieldError("'iterations' must be a non-empty list");
      for (const auto& entry : *iterations) {
        if (!entry.is_array() || entry.size() != 2 || !entry[0].is_array()) {
          throw FieldError("an iteration must be [fill, repeat], got " + entry.dump());
        }
        Iteration iteration;
        iteration.repeat = positive(entry[1], "an iteration's repeat");
        if (entry[0].size() != kinds.size()) {
          throw FieldError(std::to_string(entry[0].size()) + " fill values for a template with " +
                           std::to_string(kinds.size()) + " holes");
        }
        for (std::size_t i = 0; i < kinds.size(); ++i) {
          FillValue filled;
          if (kinds[i] == Kind::hole_item) {
            filled.item.push_back(item_from_json(entry[0][i], false));
          } else {
            filled.count = positive(entry[0][i], "a fill count");
          }
          iteration.fill.push_back(std::move(filled));
        }
        item.iterations.push_back(std::move(iteration));
      }
    } else {
      throw FieldError("a loop needs 'times' or 'iterations', got " + value.dump());
    }
  } else {
    throw FieldError("not a sequence item: " + value.dump());
  }
  return item;
}

}  // namespace

void to_json(json& out, const LaunchSignature& signature) {
  out = json{{"kernel", signature.kernel}, {"module", signature.module}, {"dim", signature.dim},
             {"device", signature.device}, {"dtypes", signature.dtypes}, {"block_dim", signature.block_dim},
             {"adjoint", signature.adjoint}, {"entry", signature.entry}};
}

void from_json(const json& in, LaunchSignature& signature) {
  signature.kernel = get<std::string>(in, "kernel", "");
  signature.module = get<std::string>(in, "module", "");
  if (const auto dim = in.find("dim"); dim != in.end() && dim->is_number_integer()) {
    signature.dim = {get<std::int64_t>(in, "dim", 0)};
  } else {
    signature.dim = get<std::vector<std::int64_t>>(in, "dim", {});
  }
  signature.device = get<std::string>(in, "device", "");
  signature.dtypes = get<std::vector<std::string>>(in, "dtypes", {});
  signature.block_dim = get<int>(in, "block_dim", 0);  // the original probe writes null for "not given"
  signature.adjoint = get<bool>(in, "adjoint", false);
  signature.entry = get<std::string>(in, "entry", "launch");
}

void to_json(json& out, const LaunchRecord& record) {
  out = json{{"signatures", record.signatures}, {"sequence", list_to_json(record.sequence)},
             {"unrecorded", record.unrecorded}};
}

void from_json(const json& in, LaunchRecord& record) {
  record = LaunchRecord{};
  json_fields::each(in, "signatures",
                    [&](const json& item, std::size_t) { record.signatures.push_back(item.get<LaunchSignature>()); });
  json_fields::each(in, "sequence",
                    [&](const json& item, std::size_t) { record.sequence.push_back(item_from_json(item, false)); });
  record.unrecorded = get<std::map<std::string, std::uint64_t>>(in, "unrecorded", {});
  if (const auto problem = check_record(record)) throw FieldError(*problem);
}

}  // namespace wcp
