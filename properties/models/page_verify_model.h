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
//       passes them all is "item shorter than a tuple header" under 24 bytes, else a tuple:
//       its header bits (infomask at 20, infomask2 at 18) give "multixact xmax marked committed"
//       (0x1000 and 0x0400), "xmax hinted both committed and invalid" (0x0400 and 0x0800),
//       "multixact xmax is 0" (0x1000, xmax 0, xmin not hinted aborted), "moved tuple without a
//       VACUUM FULL xid" (0x4000 or 0x8000, neither 0x0100 nor 0x0200, t_cid at 8 zero),
//       "HOT-updated tuple has xmax 0" (HEAP_HOT_UPDATED 0x4000, xmax not
//       hinted invalid 0x0800, xmin not hinted aborted, updating xid 0), "heap-only tuple not
//       marked HEAP_UPDATED" (0x8000 without 0x2000); then "tuple" when tuple_ok rejects it.
//   Then overlaps: the items that passed the storage checks, sorted by lp_off (ties in line
//     pointer order); each that starts before the previous one ends is reported with
//     "item overlaps line pointer P", P the previous one.
//   Then amcheck's update chain walk (PostgreSQL 16's verify_heapam), in line pointer order: a
//     redirect to a normal line pointer that is a tuple links to it ("redirect to a tuple that
//     is not heap-only"); a tuple links to the tuple its t_ctid names on block 0 (not itself)
//     when its updating xid (raw xmax, unknown for a multixact that is neither lock-only nor
//     hinted invalid) is nonzero and equals that tuple's xmin, then "non-HOT update produced a
//     heap-only tuple at line pointer N" or "HOT update produced a tuple that is not heap-only
//     at line pointer N" by the HEAP_HOT_UPDATED bit; a link to a tuple already linked is "line
//     pointer N has two predecessors (also P)" instead. Last, in line pointer order, "heap-only
//     tuple is the root of a chain" for every heap-only tuple nothing links to, unless its xmin
//     is 0, hinted aborted, or a tuple with an unknown updating xid names it.
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
