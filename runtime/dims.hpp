// Dims: the sizes/strides/shape list of a tensor, a std::vector<int64_t> look-alike that keeps up to
// kInline elements in place, so making, copying and freeing the geometry of a tensor allocates nothing.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace amps::rt {

// Contract: the std::vector<int64_t> operations the runtime uses, with the same meaning (iterators are
// pointers and are invalidated like std::vector's). Ranks above kInline move to the heap. Converts
// implicitly from and to std::vector<int64_t>, for APIs that take one (oneDNN's memory::dims).
class Dims {
 public:
  using value_type = int64_t;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = int64_t&;
  using const_reference = const int64_t&;
  using pointer = int64_t*;
  using const_pointer = const int64_t*;
  using iterator = int64_t*;
  using const_iterator = const int64_t*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;
  static constexpr size_t kInline = 6;

  Dims() = default;
  explicit Dims(size_t n, int64_t v = 0) { assign(n, v); }
  Dims(std::initializer_list<int64_t> l) { assign(l.begin(), l.end()); }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  Dims(It first, It last) { assign(first, last); }
  Dims(const std::vector<int64_t>& v) { copy_from(v.data(), v.size()); }  // NOLINT: implicit by design
  Dims(const Dims& o) { copy_dims(o); }
  Dims(Dims&& o) noexcept { take(o); }
  ~Dims() { release(); }
  Dims& operator=(const Dims& o) {
    if (this != &o) copy_dims(o);
    return *this;
  }
  Dims& operator=(Dims&& o) noexcept {
    if (this != &o) release(), take(o);
    return *this;
  }
  Dims& operator=(std::initializer_list<int64_t> l) { assign(l.begin(), l.end()); return *this; }
  operator std::vector<int64_t>() const { return std::vector<int64_t>(begin(), end()); }  // NOLINT

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  int64_t* data() { return data_; }
  const int64_t* data() const { return data_; }
  int64_t& operator[](size_t i) { return data_[i]; }
  const int64_t& operator[](size_t i) const { return data_[i]; }
  int64_t& at(size_t i) { return check(i), data_[i]; }
  const int64_t& at(size_t i) const { return check(i), data_[i]; }
  int64_t& front() { return data_[0]; }
  const int64_t& front() const { return data_[0]; }
  int64_t& back() { return data_[size_ - 1]; }
  const int64_t& back() const { return data_[size_ - 1]; }

  iterator begin() { return data_; }
  iterator end() { return data_ + size_; }
  const_iterator begin() const { return data_; }
  const_iterator end() const { return data_ + size_; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }
  void clear() { size_ = 0; }
  void resize(size_t n, int64_t v = 0) {
    reserve(n);
    if (n > size_) std::fill(data_ + size_, data_ + n, v);
    size_ = uint32_t(n);
  }
  void push_back(int64_t v) {
    if (size_ == cap_) grow(2 * cap_);
    data_[size_++] = v;
  }
  int64_t& emplace_back(int64_t v) { return push_back(v), back(); }
  void pop_back() { --size_; }

  void assign(size_t n, int64_t v) { clear(), resize(n, v); }
  template <class It> void assign(It first, It last) {
    clear();
    if constexpr (std::is_base_of_v<std::forward_iterator_tag, typename std::iterator_traits<It>::iterator_category>)
      reserve(size_t(std::distance(first, last)));
    for (; first != last; ++first) push_back(*first);
  }
  void assign(std::initializer_list<int64_t> l) { assign(l.begin(), l.end()); }

  iterator insert(const_iterator pos, int64_t v) { return insert(pos, size_t(1), v); }
  iterator insert(const_iterator pos, size_t n, int64_t v) {
    int64_t* p = open_gap(pos, n);
    std::fill(p, p + n, v);
    return p;
  }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  iterator insert(const_iterator pos, It first, It last) {
    const Dims tmp(first, last);  // a copy: [first, last) may point into this
    int64_t* p = open_gap(pos, tmp.size());
    std::copy(tmp.begin(), tmp.end(), p);
    return p;
  }
  iterator insert(const_iterator pos, std::initializer_list<int64_t> l) { return insert(pos, l.begin(), l.end()); }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    int64_t* f = data_ + (first - data_);
    std::copy(last, cend(), f);
    size_ -= uint32_t(last - first);
    return f;
  }
  void swap(Dims& o) noexcept {
    Dims t(std::move(o));
    o = std::move(*this);
    *this = std::move(t);
  }

  friend bool operator==(const Dims& a, const Dims& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend auto operator<=>(const Dims& a, const Dims& b) {
    return std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool on_heap() const { return data_ != inline_; }
  void release() {
    if (on_heap()) delete[] data_;
  }
  void copy_from(const int64_t* p, size_t n) {
    clear(), reserve(n);
    if (n) std::memcpy(data_, p, n * sizeof(int64_t));
    size_ = uint32_t(n);
  }
  void copy_dims(const Dims& o) {
    if (o.on_heap()) return copy_from(o.data_, o.size_);
    std::memcpy(data_, o.inline_, sizeof inline_);  // fits here: data_ is inline_ or a larger heap block
    size_ = o.size_;
  }
  void check(size_t i) const {
    if (i >= size_) throw std::out_of_range("Dims::at");
  }
  // Moves [o]'s elements here (this holds nothing) and leaves [o] empty.
  void take(Dims& o) {
    size_ = o.size_;
    if (o.on_heap()) {
      data_ = o.data_, cap_ = o.cap_;
      o.data_ = o.inline_, o.cap_ = kInline;
    } else {
      data_ = inline_, cap_ = kInline;
      std::memcpy(inline_, o.inline_, sizeof inline_);  // fixed size: a few moves, no memcpy call
    }
    o.size_ = 0;
  }
  void grow(size_t n) {
    n = std::max(n, size_t(kInline) * 2);
    auto* p = new int64_t[n];
    std::memcpy(p, data_, size_ * sizeof(int64_t));
    release();
    data_ = p, cap_ = uint32_t(n);
  }
  // Makes room for [n] elements at [pos] and returns where they go.
  int64_t* open_gap(const_iterator pos, size_t n) {
    const size_t at = size_t(pos - data_);
    reserve(size_ + n);
    std::copy_backward(data_ + at, data_ + size_, data_ + size_ + n);
    size_ += uint32_t(n);
    return data_ + at;
  }

  int64_t* data_ = inline_;
  uint32_t size_ = 0, cap_ = kInline;
  int64_t inline_[kInline] = {};  // zeroed, so whole-buffer copies never read indeterminate values
};

}  // namespace amps::rt
