// Reference model of the heap page verifier (storage/page/verify.h), written from the page format
// as PostgreSQL 15's bufpage.h and itemid.h define it, sharing no code with storage/. It lists what
// a verifier must report about an 8192-byte page, in order:
//
//   An all-zero page: nothing (a new page).
//   Header: "bad page size or version" (pd_pagesize_version at byte 18 is not 0x2004);
//     "unknown flag bits" (pd_flags at 10 has a bit outside 0x7); "checksum mismatch" (when a
//     checksum is expected and pd_checksum at 8 differs from it); "corrupted page pointers"
//     unless 24 <= pd_lower <= pd_upper <= pd_special <= 8192 (then nothing more is checked);
//     "pd_special not maxaligned"; "heap page has special space" (pd_special != 8192);
//     "pd_lower not at a line pointer boundary"; "too many line pointers" (more than 291).
//   Line pointers 1 .. (pd_lower - 24) / 4, each a u32: lp_off bits 0-14, lp_flags 15-16
//     (0 unused, 1 normal, 2 redirect, 3 dead), lp_len 17-31, in order:
//     unused: "unused line pointer has storage" if lp_off or lp_len is set;
//     redirect: "redirect has length" if lp_len is set; "redirect target out of range" unless
//       1 <= lp_off <= the line pointer count, else "redirect to a line pointer that is not
//       normal" unless the target is normal;
//     normal: "normal line pointer has no length" if lp_len is 0; otherwise, and for dead line
//       pointers with a length, the storage checks "item not maxaligned", "item below
//       pd_upper", "item past pd_special" (lp_off + lp_len > pd_special); a normal item that
//       passes them all is a tuple, and "tuple" is reported when tuple_ok rejects its bytes.
//   Then overlaps: the items that passed the storage checks, sorted by lp_off (ties in line
//     pointer order); each that starts before the previous one ends is reported with
//     "item overlaps line pointer P", P the previous one.
// Checks are named by these phrases; the verifier's tuple findings ("tuple: <reason>") and its
// checksum finding (with the two values) compare by their first words.
#ifndef PGSTORE_PROPERTIES_MODELS_PAGE_VERIFY_MODEL_H_
#define PGSTORE_PROPERTIES_MODELS_PAGE_VERIFY_MODEL_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pgstore::models {

using ModelFinding = std::pair<int, std::string>;  // line pointer (0: the header), check

// REQUIRES: page.size() == 8192. expected_checksum: set when data checksums are on.
std::vector<ModelFinding> ModelVerifyPage(
    const std::vector<uint8_t>& page, std::optional<uint16_t> expected_checksum,
    const std::function<bool(const std::vector<uint8_t>&)>& tuple_ok);

}  // namespace pgstore::models

#endif  // PGSTORE_PROPERTIES_MODELS_PAGE_VERIFY_MODEL_H_
