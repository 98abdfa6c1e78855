// Status and StatusOr<T>: pgstore's error contract.
//
// Every decoder in storage/ reports failure through one small closed set of codes. Messages of
// Corruption errors are short lowercase phrases naming the failed check ("truncated match tag");
// tests assert on them, so they are part of the contract.
#ifndef PGSTORE_STORAGE_COMMON_STATUS_H_
#define PGSTORE_STORAGE_COMMON_STATUS_H_

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace pgstore {

enum class StatusCode { kOk, kCorruption, kInvalidArgument, kNotSupported, kBusy };

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK

  static Status Ok() { return Status(); }
  static Status Corruption(std::string msg) {
    return Status(StatusCode::kCorruption, std::move(msg));
  }
  static Status InvalidArgument(std::string msg) {
    return Status(StatusCode::kInvalidArgument, std::move(msg));
  }
  static Status NotSupported(std::string msg) {
    return Status(StatusCode::kNotSupported, std::move(msg));
  }
  // A resource is held by someone else (a full set of transaction slots, a tuple another
  // transaction is changing): retry later; nothing is wrong with the data.
  static Status Busy(std::string msg) { return Status(StatusCode::kBusy, std::move(msg)); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  bool IsCorruption() const { return code_ == StatusCode::kCorruption; }
  bool IsInvalidArgument() const { return code_ == StatusCode::kInvalidArgument; }
  bool IsBusy() const { return code_ == StatusCode::kBusy; }
  bool IsNotSupported() const { return code_ == StatusCode::kNotSupported; }

  // "corruption: truncated match tag", or "ok".
  std::string ToString() const;

 private:
  Status(StatusCode code, std::string msg) : code_(code), message_(std::move(msg)) {}

  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    assert(!status_.ok() && "StatusOr needs a value or an error");
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok().
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T& value() & {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace pgstore

#define PGSTORE_RETURN_IF_ERROR(expr)                  \
  do {                                                 \
    ::pgstore::Status _pgstore_status = (expr);        \
    if (!_pgstore_status.ok()) return _pgstore_status; \
  } while (0)

#endif  // PGSTORE_STORAGE_COMMON_STATUS_H_
