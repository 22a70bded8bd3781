// The built-in open(file, mode="r", buffering=-1, encoding=none, errors=none, newline=none): a text file
// object as Python's (read readline readlines, iteration by lines, write writelines flush close seek tell,
// closed name mode encoding, __enter__/__exit__ for `with`), closed when its last reference dies.
// Binary modes are refused: amps has no bytes type (from_file, data.load_npy and load read raw data).
#include <cctype>
#include <memory>

#include "stdlib/io/text_file.hpp"
#include "stdlib/stdlib.hpp"

namespace amps::stdlib::io {
namespace {

bool is_utf8_name(std::string e) {
  for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
  return e == "utf-8" || e == "utf8" || e == "utf_8" || e == "u8";
}

std::string str_arg(Vm& vm, const Value& v, const char* fn) {
  if (!v.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("{}() argument must be str, not {}", fn, v.type_name()));
  return *vm.to_str(v);
}

int64_t size_arg(Vm& vm, Call& call, const char* fn, const char* param) {
  Args r(vm, call, fn, {"self", param});
  if (!r.has(1) || r.get(1).is_none()) return -1;
  if (!r.get(1).is(AMPS_TYPE_INT)) fail("TypeError", fmt::format("argument should be integer or None, not '{}'", r.get(1).type_name()));
  return *vm.to_int(r.get(1));
}

struct FileObject;

// for line in f: f.readline() until "" (the file object stays alive while iterated).
struct LineIterator : Object {
  LineIterator(Value owner, FileObject* f) : owner_value(std::move(owner)), file(f) {}
  Value next(Vm& vm) override;
  Value owner_value;
  FileObject* file;
};
const amps_class kLineIteratorClass = iterator_class("TextIOWrapperIterator");

struct FileObject : Object {
  explicit FileObject(std::unique_ptr<TextFile> f) : file(std::move(f)) {}
  std::unique_ptr<TextFile> file;

  Value attr(Vm&, const char* name) override {
    std::string n = name;
    if (n == "closed") return Value::of(file->closed());
    if (n == "name") return Value::of(std::string_view(file->name()));
    if (n == "mode") return Value::of(std::string_view(file->mode()));
    if (n == "encoding") return Value::of(std::string_view("UTF-8"));
    return Value();
  }
  Value read(Vm& vm, Call& call) { return Value::of(std::string_view(file->read(size_arg(vm, call, "read", "size")))); }
  Value readline(Vm& vm, Call& call) { return Value::of(std::string_view(file->readline(size_arg(vm, call, "readline", "size")))); }
  // Lines until the total length reaches hint (all when hint <= 0), as Python's.
  Value readlines(Vm& vm, Call& call) {
    int64_t hint = size_arg(vm, call, "readlines", "hint"), total = 0;
    std::vector<Value> lines;
    for (std::string l = file->readline(-1); !l.empty(); l = file->readline(-1)) {
      lines.push_back(Value::of(std::string_view(l)));
      for (unsigned char c : l) total += (c & 0xC0) != 0x80;   // characters, as Python counts them
      if (hint > 0 && total >= hint) break;
    }
    return Value::list(lines);
  }
  Value write(Vm& vm, Call& call) {
    Args r(vm, call, "write", {"self", "s"});
    return Value::of(file->write(str_arg(vm, r.required(1), "write")));
  }
  Value writelines(Vm& vm, Call& call) {
    Args r(vm, call, "writelines", {"self", "lines"});
    Value it = vm.iter(r.required(1));
    for (Value v = vm.next(it); v; v = vm.next(it)) file->write(str_arg(vm, v, "write"));
    return Value::none();
  }
  Value flush(Vm&, Call&) { file->flush(); return Value::none(); }
  Value close(Vm&, Call&) { file->close(); return Value::none(); }
  Value tell(Vm&, Call&) { return Value::of(file->tell()); }
  Value seek(Vm& vm, Call& call) {
    Args r(vm, call, "seek", {"self", "cookie", "whence"});
    if (!r.required(1).is(AMPS_TYPE_INT)) r.type_error(1, "int");
    return Value::of(file->seek(*vm.to_int(r.get(1)), int(r.int_or(2, 0))));
  }
  Value readable(Vm&, Call&) { return Value::of(file->readable()); }
  Value writable(Vm&, Call&) { return Value::of(file->writable()); }
  Value seekable(Vm&, Call&) { return Value::of(file->seekable()); }
  Value enter(Vm&, Call& call) {
    if (file->closed()) fail("ValueError", "I/O operation on closed file.");
    return call.arg(0);
  }
  // __exit__(exc_type, exc, tb): closes the file and returns false (an error in the block propagates).
  Value exit(Vm&, Call&) { file->close(); return Value::of(false); }
  Value iter(Vm& vm, Call& call) {
    file->readable();   // a closed file raises here, as Python's iter(f)
    return vm.new_object(kLineIteratorClass, std::make_unique<LineIterator>(call.arg(0), this));
  }
};

Value LineIterator::next(Vm&) {
  std::string line = file->file->readline(-1);
  return line.empty() ? Value() : Value::of(std::string_view(line));
}

const amps_reg kFileMethods[] = {
    {"read", method<&FileObject::read>, AMPS_CAST_NONE, nullptr},
    {"readline", method<&FileObject::readline>, AMPS_CAST_NONE, nullptr},
    {"readlines", method<&FileObject::readlines>, AMPS_CAST_NONE, nullptr},
    {"write", method<&FileObject::write>, AMPS_CAST_NONE, nullptr},
    {"writelines", method<&FileObject::writelines>, AMPS_CAST_NONE, nullptr},
    {"flush", method<&FileObject::flush>, AMPS_CAST_NONE, nullptr},
    {"close", method<&FileObject::close>, AMPS_CAST_NONE, nullptr},
    {"seek", method<&FileObject::seek>, AMPS_CAST_NONE, nullptr},
    {"tell", method<&FileObject::tell>, AMPS_CAST_NONE, nullptr},
    {"readable", method<&FileObject::readable>, AMPS_CAST_NONE, nullptr},
    {"writable", method<&FileObject::writable>, AMPS_CAST_NONE, nullptr},
    {"seekable", method<&FileObject::seekable>, AMPS_CAST_NONE, nullptr},
    {"__enter__", method<&FileObject::enter>, AMPS_CAST_NONE, nullptr},
    {"__exit__", method<&FileObject::exit>, AMPS_CAST_NONE, nullptr},
    {"__iter__", method<&FileObject::iter>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};
const amps_class kFileClass = object_class("TextIOWrapper", kFileMethods);

std::optional<std::string> optional_str(const Args& r, size_t i) {
  if (!r.has(i) || r.get(i).is_none()) return std::nullopt;
  return r.str_or(i, "");
}

// Python's checks on the arguments besides the path, in its order.
void check_open_args(const Args& r, const OpenMode& m, const std::string& mode) {
  if (m.binary)
    fail("ValueError", fmt::format("open(): binary mode '{}' is not supported: amps has no bytes type; read raw tensor "
                                   "data with from_file(...) or data.load_npy(...), checkpoints with load(...)", mode));
  if (r.int_or(2, -1) == 0) fail("ValueError", "can't have unbuffered text I/O");
  std::optional<std::string> enc = optional_str(r, 3), errors = optional_str(r, 4);
  if (enc && !is_utf8_name(*enc))
    fail("ValueError", fmt::format("open(): encoding '{}' is not supported: amps reads and writes text files as UTF-8 only "
                                   "(encoding='utf-8' or none)", *enc));
  if (errors && *errors != "strict")
    fail("ValueError", fmt::format("open(): errors='{}' is not supported: amps decodes strictly (errors='strict' or none)", *errors));
}

Value b_open(Vm& vm, Call& call) {
  Args r(vm, call, "open", {"file", "mode", "buffering", "encoding", "errors", "newline"});
  const Value& file = r.required(0);
  if (!file.is(AMPS_TYPE_STR)) fail("TypeError", fmt::format("expected str, bytes or os.PathLike object, not {}", file.type_name()));
  if (vm.sandboxed()) fail("PermissionError", "open(): file access is disabled in this sandboxed interpreter");
  std::string mode = r.str_or(1, "r");
  check_open_args(r, parse_open_mode(mode), mode);
  auto f = std::make_unique<TextFile>(*vm.to_str(file), mode, optional_str(r, 5));
  return vm.new_object(kFileClass, std::make_unique<FileObject>(std::move(f)));
}

const amps_reg kOpenNatives[] = {
    {"open", native<b_open>, AMPS_CAST_NONE, nullptr},
    {nullptr, nullptr, AMPS_CAST_NONE, nullptr},
};

}  // namespace
}  // namespace amps::stdlib::io

namespace amps::stdlib {

void install_open(Vm& vm) { register_globals(vm, io::kOpenNatives); }

}  // namespace amps::stdlib
