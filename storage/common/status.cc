#include "storage/common/status.h"

namespace pgstore {

std::string Status::ToString() const {
  switch (code_) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kCorruption:
      return "corruption: " + message_;
    case StatusCode::kInvalidArgument:
      return "invalid argument: " + message_;
    case StatusCode::kNotSupported:
      return "not supported: " + message_;
    case StatusCode::kBusy:
      return "busy: " + message_;
  }
  return "unknown: " + message_;
}

}  // namespace pgstore
