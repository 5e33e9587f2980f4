#include "codec/summary_json.h"

#include "io/json_fields.h"

namespace wcp {

void put_summary(nlohmann::json& out, const std::string& stem, const std::optional<Summary>& summary) {
  using nlohmann::json;
  out[stem + "_median"] = summary ? json(summary->median) : json(nullptr);
  out[stem + "_mad"] = summary ? json_fields::or_null(summary->mad) : json(nullptr);
  out[stem + "_values"] = summary ? json(summary->values) : json::array();
  out[stem + "_n"] = summary && summary->count > 0 ? json(summary->count) : json(nullptr);
}

}  // namespace wcp
