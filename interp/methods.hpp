// The method tables of the built-in types (list, dict, str, tuple), one file per type; builtin_method (builtins.hpp)
// dispatches through them. Every body follows Python 3.11: values, defaults, and errors with Python's messages.
#pragma once

#include <string>
#include <unordered_map>

#include "interp/builtins.hpp"

namespace amps::interp {

// A method body: `self` is the receiver; `a` holds the remaining arguments.
using MethodFn = Value (*)(Interp&, const Value& self, CallArgs& a);
using MethodTable = std::unordered_map<std::string, MethodFn>;

const MethodTable& list_methods();       // methods_list.cpp
const MethodTable& dict_methods();       // methods_dict.cpp
const MethodTable& str_methods();        // methods_str.cpp (+ methods_str_split.cpp, methods_str_format.cpp)
const MethodTable& tuple_methods();      // methods_list.cpp

// `dict.fromkeys(keys, value=None)`, reached as an attribute of the `dict` builtin (methods_dict.cpp).
Value dict_fromkeys(Interp& in, CallArgs& a);

// obj[key] for a key that is already a value (str.format's "{0[key]}"); the evaluator's indexing (sequence.cpp).
Value index_key(Interp& in, const Value& obj, const Value& key, const Span& where);

// `d |= other` (other a dict or key/value pairs, Python's errors) and `a | b` for two dicts (methods_dict.cpp).
void dict_update_from(Interp& in, Dict& d, const Value& other, const Span& where);
Value dict_merged(Interp& in, const Value& a, const Value& b, const Span& where);

// The str methods kept in their own files; str_methods() lists them.
void add_str_split_methods(MethodTable& t);    // split rsplit partition rpartition splitlines strip* join expandtabs
void add_str_format_methods(MethodTable& t);   // format format_map

// A str receiver's text; the [i]th argument as a str, or Python's TypeError "[what ]must be str, not int".
inline const std::string& text(const Value& self) { return self.as<Str>()->value; }
std::string str_arg(const ArgReader& r, size_t i, const std::string& what);

// Python's start/end clamping of find/count/index/startswith over a length-n sequence (arguments i, i+1);
// str methods take none for a bound, list/tuple.index do not (their messages differ accordingly).
void clamp_range(const ArgReader& r, size_t i, int64_t n, int64_t& start, int64_t& end, bool none_ok = true);

// A method that takes exactly one positional argument: it, or Python's TypeError
// "list.append() takes exactly one argument (2 given)".
const Value& one_arg(const CallArgs& a, const char* qualname);

// A method that takes no arguments: Python's TypeError "str.upper() takes no arguments (1 given)" otherwise.
void no_args(const CallArgs& a, const char* qualname);

}  // namespace amps::interp
