//===- WriteArtifacts.cpp - PTX, cubin and manifests of the kernels -------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Target/Passes.h"
#include "Credit/Dialect/CreditDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <cerrno>
#include <unistd.h>

namespace mlir {
namespace credit {
#define GEN_PASS_DEF_CREDITWRITEARTIFACTS
#include "Credit/Target/Passes.h.inc"
} // namespace credit
} // namespace mlir

using namespace mlir;
using namespace mlir::credit;

/// Converts the attributes a manifest is made of to JSON.
static llvm::json::Value toJSON(Attribute attr) {
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dict)
      object[entry.getName().getValue()] = toJSON(entry.getValue());
    return object;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr))
    return llvm::json::Array(llvm::map_range(array, toJSON));
  if (auto string = dyn_cast<StringAttr>(attr))
    return string.getValue();
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return boolean.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  if (auto real = dyn_cast<FloatAttr>(attr))
    return real.getValueAsDouble();
  return nullptr;
}

/// Writes `contents` to `path` so that a reader never sees a partial file:
/// into a unique temporary file beside it, flushed to disk, then renamed
/// over `path`.
static LogicalResult writeFile(Operation *op, StringRef path,
                               StringRef contents) {
  int fd;
  SmallString<256> temporary;
  std::error_code ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%",
                                                       fd, temporary);
  bool created = !ec;
  if (created) {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.flush();
    if (os.has_error()) {
      ec = os.error();
      os.clear_error();
    } else if (::fsync(fd) != 0) {
      ec = std::error_code(errno, std::generic_category());
    }
  }
  if (!ec)
    ec = llvm::sys::fs::rename(temporary, path);
  if (!ec)
    return success();
  if (created)
    llvm::sys::fs::remove(temporary);
  return op->emitError() << "cannot write '" << path << "': " << ec.message();
}

/// The functions `ptx` calls but does not define (`.extern .func`): calls
/// into libdevice that were never linked.
static SmallVector<StringRef> getUnresolvedFunctions(StringRef ptx) {
  // `.extern .func (.param .b32 func_retval0) __nv_tanf` or, for a
  // function without a result, `.extern .func __nv_foo`.
  SmallVector<StringRef> names;
  SmallVector<StringRef> lines;
  ptx.split(lines, '\n');
  for (StringRef line : lines) {
    line = line.ltrim();
    if (!line.consume_front(".extern"))
      continue;
    line = line.ltrim();
    if (!line.consume_front(".func"))
      continue;
    line = line.ltrim();
    if (line.starts_with("("))
      line = line.drop_until([](char c) { return c == ')'; })
                 .drop_front()
                 .ltrim();
    names.push_back(line.take_while(
        [](char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; }));
  }
  return names;
}

namespace {
/// What `ptxas -v` reported about one kernel.
struct PtxasReport {
  int64_t registers = -1;
  int64_t spillStores = -1;
  int64_t spillLoads = -1;
  int64_t stackFrame = -1;
};
} // namespace

/// Assembles `ptxPath` into `cubinPath` with `ptxas -v` for `chip`.
static FailureOr<PtxasReport> runPtxas(Operation *op, StringRef ptxas,
                                       StringRef chip, StringRef ptxPath,
                                       StringRef cubinPath) {
  SmallString<128> log;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("credit-ptxas", "log", log))
    return op->emitError() << "cannot create a temporary file: "
                           << ec.message();
  std::string arch = ("-arch=" + chip).str();
  SmallVector<StringRef> args = {ptxas, arch, "-v", ptxPath, "-o", cubinPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string error;
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/120, 0, &error);
  auto output = llvm::MemoryBuffer::getFile(log);
  std::string text = output ? (*output)->getBuffer().str() : "";
  llvm::sys::fs::remove(log);
  if (status != 0)
    return op->emitError() << "ptxas failed on '" << ptxPath << "'"
                           << (error.empty() ? "" : ": " + error) << "\n"
                           << text;

  PtxasReport report;
  auto find = [&](StringRef pattern, int64_t &out) {
    SmallVector<StringRef> groups;
    if (llvm::Regex(pattern).match(text, &groups))
      groups[1].getAsInteger(10, out);
  };
  find("Used ([0-9]+) registers", report.registers);
  find("([0-9]+) bytes spill stores", report.spillStores);
  find("([0-9]+) bytes spill loads", report.spillLoads);
  find("([0-9]+) bytes stack frame", report.stackFrame);
  return report;
}

/// Adds `written` to DIR/kernels.json, keeping the kernels listed before
/// whose manifests are still there. Concurrent writers into one directory
/// take turns under a lock on DIR/.kernels.json.lock; a damaged index is
/// rebuilt from what it can still name.
static LogicalResult updateIndex(Operation *op, StringRef dir,
                                 ArrayRef<std::string> written) {
  SmallString<256> lockPath(dir), indexPath(dir);
  llvm::sys::path::append(lockPath, ".kernels.json.lock");
  llvm::sys::path::append(indexPath, "kernels.json");
  int lockFd;
  if (std::error_code ec = llvm::sys::fs::openFileForWrite(
          lockPath, lockFd, llvm::sys::fs::CD_OpenAlways))
    return op->emitError() << "cannot open '" << lockPath
                           << "': " << ec.message();
  llvm::scope_exit closeLock([&] { ::close(lockFd); });
  if (std::error_code ec = llvm::sys::fs::lockFile(lockFd))
    return op->emitError() << "cannot lock '" << lockPath
                           << "': " << ec.message();
  llvm::scope_exit unlock([&] { llvm::sys::fs::unlockFile(lockFd); });

  llvm::json::Array index;
  llvm::StringSet<> listed;
  auto add = [&](StringRef file) {
    if (listed.insert(file).second)
      index.push_back(file.str());
  };
  // Only manifests of this directory: `<identifier>.json` files in it.
  auto addIfManifest = [&](StringRef file) {
    if (file == "kernels.json" || !file.ends_with(".json") ||
        !isIdentifier(file.drop_back(5)))
      return;
    SmallString<256> path(dir);
    llvm::sys::path::append(path, file);
    if (llvm::sys::fs::is_regular_file(path))
      add(file);
  };
  if (auto buffer = llvm::MemoryBuffer::getFile(indexPath)) {
    llvm::Expected<llvm::json::Value> parsed =
        llvm::json::parse((*buffer)->getBuffer());
    const llvm::json::Array *kernels = nullptr;
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    else if (auto *object = parsed->getAsObject())
      kernels = object->getArray("kernels");
    if (kernels) {
      for (const llvm::json::Value &entry : *kernels)
        if (std::optional<StringRef> file = entry.getAsString())
          addIfManifest(*file);
    } else {
      // Unreadable: list the manifests the directory holds.
      std::error_code ec;
      SmallVector<std::string> files;
      for (llvm::sys::fs::directory_iterator it(dir, ec), end;
           it != end && !ec; it.increment(ec))
        files.push_back(llvm::sys::path::filename(it->path()).str());
      llvm::sort(files);
      for (const std::string &file : files)
        addIfManifest(file);
    }
  }
  for (const std::string &file : written)
    add(file);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"kernels", std::move(index)}}))
     << "\n";
  return writeFile(op, indexPath, text);
}

namespace {
struct WriteArtifactsPass
    : public credit::impl::CreditWriteArtifactsBase<WriteArtifactsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto manifests =
        module->getAttrOfType<DictionaryAttr>(CreditDialect::kKernelsAttrName);
    if (!dir.empty()) {
      if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
        module.emitError() << "cannot create '" << dir << "': " << ec.message();
        return signalPassFailure();
      }
    }

    SmallVector<std::string> written;
    for (auto binary : module.getOps<gpu::BinaryOp>()) {
      StringRef name = binary.getSymName();
      DictionaryAttr manifest =
          manifests ? manifests.getAs<DictionaryAttr>(name) : DictionaryAttr();
      if (!manifest)
        continue; // not a CREDIT kernel
      // The dialect verifies manifest names; file names are made from them.
      if (!isIdentifier(name)) {
        binary.emitError() << "kernel name '" << name
                           << "' is not an identifier";
        return signalPassFailure();
      }
      auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly) {
        binary.emitError("credit-write-artifacts expects PTX (format isa)");
        return signalPassFailure();
      }
      StringRef ptx = object.getObject().getValue();
      if (SmallVector<StringRef> missing = getUnresolvedFunctions(ptx);
          !missing.empty()) {
        binary.emitError()
            << "the PTX of '" << name << "' calls functions it does not "
            << "define (" << llvm::join(missing, ", ")
            << "): libdevice was not linked; pass toolkit=<CUDA toolkit root>";
        return signalPassFailure();
      }

      // Without a directory, PTX goes to a temporary file for ptxas only.
      SmallString<256> ptxPath(dir), cubinPath(dir), jsonPath(dir);
      bool temporary = dir.empty();
      if (temporary) {
        if (ptxas.empty())
          continue;
        if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
                name, "ptx", ptxPath)) {
          binary.emitError() << "cannot create a temporary file: "
                             << ec.message();
          return signalPassFailure();
        }
        cubinPath = ptxPath;
        llvm::sys::path::replace_extension(cubinPath, "cubin");
      } else {
        llvm::sys::path::append(ptxPath, name + ".ptx");
        llvm::sys::path::append(cubinPath, name + ".cubin");
        llvm::sys::path::append(jsonPath, name + ".json");
      }
      if (failed(writeFile(binary, ptxPath, ptx)))
        return signalPassFailure();

      llvm::json::Object json = std::move(*toJSON(manifest).getAsObject());
      json["entry"] = name;
      json["chip"] = chip;
      json["ptx"] = (name + ".ptx").str();
      if (!ptxas.empty()) {
        FailureOr<PtxasReport> report =
            runPtxas(binary, ptxas, chip, ptxPath, cubinPath);
        uint64_t cubinSize = 0;
        bool cubinWritten =
            succeeded(report) &&
            !llvm::sys::fs::file_size(cubinPath, cubinSize) && cubinSize > 0;
        if (temporary) {
          llvm::sys::fs::remove(ptxPath);
          llvm::sys::fs::remove(cubinPath);
        }
        if (failed(report))
          return signalPassFailure();
        if (!cubinWritten) {
          binary.emitError() << "ptxas succeeded but wrote no cubin at '"
                             << cubinPath << "'";
          return signalPassFailure();
        }
        json["cubin"] = (name + ".cubin").str();
        json["ptxas"] =
            llvm::json::Object{{"registers", report->registers},
                               {"spill_stores", report->spillStores},
                               {"spill_loads", report->spillLoads},
                               {"stack_frame", report->stackFrame}};
      }
      if (temporary)
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << llvm::formatv("{0:2}", llvm::json::Value(std::move(json))) << "\n";
      if (failed(writeFile(binary, jsonPath, text)))
        return signalPassFailure();
      written.push_back((name + ".json").str());
    }

    if (!dir.empty() && failed(updateIndex(module, dir, written)))
      return signalPassFailure();
  }
};
} // namespace
