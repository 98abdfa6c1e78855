// Property: pglz decompression of arbitrary bytes never crashes, never reads or writes out of
// bounds, and accepts exactly what the reference model accepts, with the same output; a
// TOAST compressed datum read from arbitrary bytes decodes to what the model decodes, whole and
// as slices (of 0, 1, a third, all but one, all and one more than its raw size bytes: the model's
// partial decode of that many bytes, exact for the whole), and its header never accepts a raw size
// beyond the payload's maximum expansion (the decoder's documented allocation bound): it accepts
// exactly the headers the model accepts, with the same raw size and method, at any address.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzzers/fuzz_helpers.h"
#include "properties/models/pglz_model.h"
#include "storage/pglz/decompress.h"
#include "storage/pglz/pglz_format.h"
#include "storage/pglz/toast_datum.h"

namespace {

// Inputs past 64 KiB add no new decoder paths and slow every execution down (the model is a
// byte-at-a-time decoder and rawsize may be 91 times the input).
constexpr size_t kMaxInput = 64 << 10;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pgstore;
  if (size > kMaxInput) return 0;

  // As a datum: header checks, then the payload (exact, or a slice).
  {
    auto datum = fuzz::ExactCopy(ByteView(data, size));
    StatusOr<pglz::CompressedDatumHeader> h =
        pglz::GetCompressedDatumHeader(ByteView(datum.get(), size));
    // The allocation bound toast_datum.h documents: an accepted raw size is at most what the
    // payload can expand to (checked before decoding, which would allocate it).
    if (h.ok()) {
      FUZZ_ASSERT(h->raw_size <=
                  uint64_t{size - pglz::kCompressedHeaderSize} * pglz::kMaxExpansion);
    }
    const auto model_header = models::PglzModelDatumHeader(std::vector<uint8_t>(data, data + size));
    FUZZ_ASSERT(h.ok() == model_header.has_value());
    if (h.ok()) {
      FUZZ_ASSERT(h->raw_size == model_header->raw_size && h->method_id == model_header->method);
    }
    // The API takes a datum at any address, aligned or not: at an odd one, the same header.
    const fuzz::OddCopy odd(ByteView(data, size));
    StatusOr<pglz::CompressedDatumHeader> at_odd = pglz::GetCompressedDatumHeader(odd.View());
    FUZZ_ASSERT(at_odd.ok() == h.ok());
    if (h.ok()) FUZZ_ASSERT(at_odd->raw_size == h->raw_size && at_odd->method_id == h->method_id);
    StatusOr<std::vector<uint8_t>> full = pglz::DecompressDatum(ByteView(datum.get(), size));
    if (h.ok() && h->method_id == pglz::kPglzMethodId) {
      std::vector<uint8_t> payload(data + pglz::kCompressedHeaderSize, data + size);
      auto model = models::PglzModelDecompress(payload, h->raw_size, true);
      FUZZ_ASSERT(full.ok() == model.has_value());
      if (full.ok()) FUZZ_ASSERT(*full == *model);
      const uint32_t raw = h->raw_size;
      for (uint32_t slice : {0u, 1u, raw / 3, raw - 1, raw, raw + 1}) {
        StatusOr<std::vector<uint8_t>> part =
            pglz::DecompressDatumSlice(ByteView(datum.get(), size), slice);
        const uint32_t want = slice < raw ? slice : raw;
        auto model_part = models::PglzModelDecompress(payload, want, want == raw);
        FUZZ_ASSERT(part.ok() == model_part.has_value());
        if (part.ok()) FUZZ_ASSERT(*part == *model_part);
        if (part.ok() && full.ok())
          FUZZ_ASSERT(std::equal(part->begin(), part->end(), full->begin()));
      }
    } else {
      FUZZ_ASSERT(!full.ok());
      FUZZ_ASSERT(!pglz::DecompressDatumSlice(ByteView(datum.get(), size), 1).ok());
    }
  }

  // As a bare stream with parameters from the tail.
  fuzz::TailSplitter t(data, size);
  const bool exact = t.TakeBool();
  const size_t rawsize = t.TakeU16();
  ByteView payload = t.Payload();
  auto src = fuzz::ExactCopy(payload);
  std::unique_ptr<uint8_t[]> dest(new uint8_t[rawsize > 0 ? rawsize : 1]);
  StatusOr<size_t> n =
      pglz::Decompress(ByteView(src.get(), payload.size), dest.get(), rawsize,
                       exact ? pglz::Completeness::kExact : pglz::Completeness::kPartial);
  auto model = models::PglzModelDecompress(payload.ToVector(), rawsize, exact);
  FUZZ_ASSERT(n.ok() == model.has_value());
  if (n.ok()) {
    FUZZ_ASSERT(*n == model->size());
    FUZZ_ASSERT(std::equal(model->begin(), model->end(), dest.get()));
    if (exact) FUZZ_ASSERT(*n == rawsize);
  }
  return 0;
}
