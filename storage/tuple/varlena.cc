#include "storage/tuple/varlena.h"

namespace pgstore::tuple {

StatusOr<size_t> CheckedVarlenaSize(ByteView bytes) {
  if (bytes.size < 1) return Status::Corruption("truncated varlena header");
  switch (VarlenaFormOf(bytes[0])) {
    case VarlenaForm::kShort: {
      const size_t size = bytes[0] >> 1;
      if (size > bytes.size) return Status::Corruption("varlena extends past end of tuple");
      return size;
    }
    case VarlenaForm::kExternal: {
      if (bytes.size < kVarHdrSzExternal) return Status::Corruption("truncated varlena header");
      if (bytes[1] != kVarTagOnDisk) return Status::Corruption("unexpected toast tag");
      if (kToastPointerSize > bytes.size) {
        return Status::Corruption("varlena extends past end of tuple");
      }
      const ToastPointer p = ReadToastPointer(bytes);
      if (p.method > 1) return Status::Corruption("invalid compression method");
      // va_rawsize is an int32: a negative one is as far out of range as one above 1 GB - 1.
      if (p.rawsize < kVarHdrSz || p.rawsize > kMaxVarlenaSize) {
        return Status::Corruption("toast raw size out of range");
      }
      if (p.extsize > p.rawsize - kVarHdrSz) {
        return Status::Corruption("toast external size exceeds raw size");
      }
      return kToastPointerSize;
    }
    case VarlenaForm::k4B:
    case VarlenaForm::k4BCompressed: {
      if (bytes.size < kVarHdrSz) return Status::Corruption("truncated varlena header");
      const size_t size = LoadLE32(bytes.data) >> 2;
      const bool compressed = VarlenaFormOf(bytes[0]) == VarlenaForm::k4BCompressed;
      if (size < (compressed ? kVarHdrSzCompressed : kVarHdrSz)) {
        return Status::Corruption("bad varlena size");
      }
      if (size > bytes.size) return Status::Corruption("varlena extends past end of tuple");
      if (compressed && (LoadLE32(bytes.data + kVarHdrSz) >> 30) > 1) {
        return Status::Corruption("invalid compression method");
      }
      return size;
    }
  }
  return Status::Corruption("bad varlena size");  // unreachable
}

bool CanMakeShort(ByteView value) {
  return VarlenaFormOf(value[0]) == VarlenaForm::k4B &&
         (LoadLE32(value.data) >> 2) - kVarHdrSz + kVarHdrSzShort <= kMaxShortVarlena;
}

void AppendShortForm(ByteView value, std::vector<uint8_t>* out) {
  const size_t data = (LoadLE32(value.data) >> 2) - kVarHdrSz;
  out->push_back(static_cast<uint8_t>(((data + kVarHdrSzShort) << 1) | 1));
  out->insert(out->end(), value.data + kVarHdrSz, value.data + kVarHdrSz + data);
}

std::vector<uint8_t> MakeToastPointer(uint32_t rawsize, uint32_t extsize, uint32_t method,
                                      uint32_t valueid, uint32_t toastrelid) {
  std::vector<uint8_t> out = {0x01, kVarTagOnDisk};
  PutLE32(&out, rawsize);
  PutLE32(&out, (extsize & static_cast<uint32_t>(kMaxVarlenaSize)) | (method << 30));
  PutLE32(&out, valueid);
  PutLE32(&out, toastrelid);
  return out;
}

ToastPointer ReadToastPointer(ByteView value) {
  // varatt_external: va_rawsize, va_extinfo (size and method), va_valueid, va_toastrelid.
  const uint8_t* p = value.data + kVarHdrSzExternal;
  const uint32_t extinfo = LoadLE32(p + 4);
  return ToastPointer{LoadLE32(p), extinfo & static_cast<uint32_t>(kMaxVarlenaSize), extinfo >> 30,
                      LoadLE32(p + 8), LoadLE32(p + 12)};
}

std::vector<uint8_t> MakeVarlena(ByteView data) {
  std::vector<uint8_t> out;
  out.reserve(kVarHdrSz + data.size);
  PutLE32(&out, static_cast<uint32_t>((data.size + kVarHdrSz) << 2));
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<uint8_t> ExpandShortVarlena(ByteView value) {
  if (VarlenaFormOf(value[0]) != VarlenaForm::kShort) return value.ToVector();
  const size_t size = value[0] >> 1;
  return MakeVarlena(value.Sub(kVarHdrSzShort, size - kVarHdrSzShort));
}

}  // namespace pgstore::tuple
