#include "runtime/backend/common/einsum.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "runtime/arg_reader.hpp"
#include "runtime/error.hpp"
#include "runtime/functions.hpp"

namespace amps::rt::common {
namespace {

// Ellipsis dims get labels after the letters (so they sort as their own labels and never collide).
constexpr int kEllipsisBase = 128;

// A tensor whose dims are named by labels (one per dim, no repeats).
struct Labeled {
  Tensor t;
  std::vector<int> labels;
};

// The labels of one operand's subscript ("ij", "b...d") for a tensor of [ndim] dims; [ell] receives the number
// of dims the ellipsis stands for (-1 when there is none).
std::vector<int> parse_subscript(std::string_view s, int64_t ndim, int& ell, std::string_view eq) {
  std::vector<int> out;
  const size_t dots = s.find("...");
  const int64_t letters = int64_t(s.size()) - (dots == std::string_view::npos ? 0 : 3);
  ell = -1;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i == dots) {
      AMPS_CHECK(ndim >= letters, "einsum(): the number of subscripts in the equation ({}) is more than the number "
                 "of dimensions ({}) for operand", letters, ndim);
      ell = int(ndim - letters);
      for (int k = 0; k < ell; ++k) out.push_back(kEllipsisBase + k);
      i += 2;
      continue;
    }
    const char c = s[i];
    AMPS_CHECK(std::isalpha(static_cast<unsigned char>(c)), "einsum(): invalid subscript '{}' in the equation "
               "string '{}', subscripts must be in [a-zA-Z]", c, eq);
    AMPS_CHECK(std::find(out.begin(), out.end(), int(c)) == out.end(), "einsum(): the subscript '{}' repeats in "
               "one operand, a diagonal, which amps' einsum does not support", c);
    out.push_back(int(c));
  }
  AMPS_CHECK(int64_t(out.size()) == ndim, "einsum(): the number of subscripts in the equation ({}) does not match "
             "the number of dimensions ({}) for operand and no ellipsis was given", out.size(), ndim);
  return out;
}

// The ellipsis labels of a tensor with [ell] ellipsis dims, aligned to the right of [max_ell] (broadcasting).
void align_ellipsis(std::vector<int>& labels, int ell, int max_ell) {
  for (int& l : labels)
    if (l >= kEllipsisBase) l += max_ell - ell;
}

// [x] summed over its labels that [keep] does not contain.
Labeled sum_out(Labeled x, const std::vector<int>& keep) {
  Dims dims;
  std::vector<int> rest;
  for (size_t d = 0; d < x.labels.size(); ++d) {
    if (std::find(keep.begin(), keep.end(), x.labels[d]) == keep.end()) dims.push_back(int64_t(d));
    else rest.push_back(x.labels[d]);
  }
  if (!dims.empty()) x = {sum(x.t, dims), rest};
  return x;
}

// [x] permuted to the label order [order] (every label of x, in that order; missing ones become size-1 dims).
Tensor arrange(const Labeled& x, const std::vector<int>& order) {
  Dims perm;
  for (int l : order) {
    auto it = std::find(x.labels.begin(), x.labels.end(), l);
    if (it != x.labels.end()) perm.push_back(int64_t(it - x.labels.begin()));
  }
  Tensor t = x.t.permute(perm);
  Dims shape;
  size_t k = 0;
  for (int l : order)
    shape.push_back(std::find(x.labels.begin(), x.labels.end(), l) != x.labels.end() ? t.size(int64_t(k++)) : 1);
  return t.reshape(shape);
}

int64_t label_size(const Labeled& x, int l) {
  auto it = std::find(x.labels.begin(), x.labels.end(), l);
  return it == x.labels.end() ? 1 : x.t.size(int64_t(it - x.labels.begin()));
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

// a * b contracted over the labels in both that [needed] does not contain: one bmm over [batch, left, contracted]
// and [batch, contracted, right], with size-1 dims broadcast to the other operand's size.
Labeled contract(const Labeled& a, const Labeled& b, const std::vector<int>& needed) {
  std::vector<int> batch, left, right, summed;
  auto in = [](const std::vector<int>& v, int l) { return std::find(v.begin(), v.end(), l) != v.end(); };
  for (int l : a.labels) (in(b.labels, l) ? (in(needed, l) ? batch : summed) : left).push_back(l);
  for (int l : b.labels)
    if (!in(a.labels, l)) right.push_back(l);
  std::vector<int64_t> bs, ls, rs, ss;
  for (int l : batch) bs.push_back(std::max(label_size(a, l), label_size(b, l)));
  for (int l : left) ls.push_back(label_size(a, l));
  for (int l : right) rs.push_back(label_size(b, l));
  for (int l : summed) ss.push_back(std::max(label_size(a, l), label_size(b, l)));
  auto cat_labels = [](std::initializer_list<const std::vector<int>*> parts) {
    std::vector<int> out;
    for (auto* p : parts) out.insert(out.end(), p->begin(), p->end());
    return out;
  };
  auto shape_of = [](std::initializer_list<const std::vector<int64_t>*> parts) {
    Dims out;
    for (auto* p : parts) out.insert(out.end(), p->begin(), p->end());
    return out;
  };
  Tensor ta = arrange(a, cat_labels({&batch, &left, &summed})).expand(shape_of({&bs, &ls, &ss}));
  Tensor tb = arrange(b, cat_labels({&batch, &summed, &right})).expand(shape_of({&bs, &ss, &rs}));
  Tensor r = bmm(ta.reshape({product(bs), product(ls), product(ss)}), tb.reshape({product(bs), product(ss), product(rs)}));
  return {r.reshape(shape_of({&bs, &ls, &rs})), cat_labels({&batch, &left, &right})};
}

// Every label's sizes across the operands agree up to size-1 dims (PyTorch's message).
void check_broadcast(const std::vector<Labeled>& ops) {
  std::map<int, int64_t> seen;
  for (size_t i = 0; i < ops.size(); ++i)
    for (size_t d = 0; d < ops[i].labels.size(); ++d) {
      const int l = ops[i].labels[d];
      const int64_t s = ops[i].t.size(int64_t(d));
      auto [it, fresh] = seen.emplace(l, s);
      if (fresh || s == 1) continue;
      AMPS_CHECK(it->second == 1 || it->second == s, "einsum(): subscript {} has size {} for operand {} which does "
                 "not broadcast with previously seen size {}",
                 l >= kEllipsisBase ? std::string("...") : std::string(1, char(l)), s, i, it->second);
      it->second = s;
    }
}

}  // namespace

Tensors einsum_math(Args& args) {
  ArgReader a(OpId::einsum, args);
  std::string eq = a.str(0);
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const std::vector<Tensor> ts = a.tensors(1);
  AMPS_CHECK(!ts.empty(), "einsum(): must provide at least one operand");
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> subs;
  for (size_t p = 0, q; p <= lhs.size(); p = q + 1) {
    q = std::min(lhs.find(',', p), lhs.size());
    subs.push_back(lhs.substr(p, q - p));
  }
  AMPS_CHECK(subs.size() <= ts.size(), "einsum(): fewer operands were provided than specified in the equation");
  AMPS_CHECK(subs.size() >= ts.size(), "einsum(): more operands were provided than specified in the equation");
  std::vector<Labeled> ops;
  std::vector<int> ells;
  int max_ell = 0;
  for (size_t i = 0; i < ts.size(); ++i) {
    int ell;
    ops.push_back({ts[i], parse_subscript(subs[i], ts[i].dim(), ell, eq)});
    ells.push_back(ell);
    max_ell = std::max(max_ell, ell);
  }
  for (size_t i = 0; i < ops.size(); ++i) align_ellipsis(ops[i].labels, std::max(ells[i], 0), max_ell);
  check_broadcast(ops);
  // The output labels: as written, else the ellipsis then the letters used once, in alphabetical order.
  std::vector<int> out;
  if (arrow != std::string::npos) {
    int ell;
    std::string rhs = eq.substr(arrow + 2);
    const size_t letters = rhs.size() - (rhs.find("...") == std::string::npos ? 0 : 3);
    out = parse_subscript(rhs, int64_t(letters) + (rhs.find("...") == std::string::npos ? 0 : max_ell), ell, eq);
    for (int l : out)
      AMPS_CHECK(l >= kEllipsisBase || std::any_of(ops.begin(), ops.end(), [&](const Labeled& o) {
                   return std::find(o.labels.begin(), o.labels.end(), l) != o.labels.end(); }),
                 "einsum(): output subscript {} does not appear in the equation for any input operand", char(l));
  } else {
    std::map<int, int> count;
    for (const Labeled& o : ops)
      for (int l : o.labels) ++count[l];
    for (int k = 0; k < max_ell; ++k) out.push_back(kEllipsisBase + k);
    for (auto [l, c] : count)
      if (l < kEllipsisBase && c == 1) out.push_back(l);
  }
  // Left to right: each operand keeps the labels of the output and of the operands after it.
  auto needed_after = [&](size_t i) {
    std::vector<int> need = out;
    for (size_t j = i + 1; j < ops.size(); ++j) need.insert(need.end(), ops[j].labels.begin(), ops[j].labels.end());
    return need;
  };
  Labeled acc = sum_out(ops[0], needed_after(0));
  for (size_t i = 1; i < ops.size(); ++i) {
    std::vector<int> need = needed_after(i);
    std::vector<int> keep_b = need;
    keep_b.insert(keep_b.end(), acc.labels.begin(), acc.labels.end());
    Labeled b = sum_out(ops[i], keep_b);
    std::vector<int> keep_a = need;
    keep_a.insert(keep_a.end(), b.labels.begin(), b.labels.end());
    acc = contract(sum_out(acc, keep_a), b, need);
  }
  return {arrange(sum_out(acc, out), out)};
}

}  // namespace amps::rt::common
