//===- WriteArtifacts.cpp - PTX, cubin and manifests of the kernels -------===//
//
// Part of the CREDIT project.
//
//===----------------------------------------------------------------------===//

#include "Credit/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"

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

static LogicalResult writeFile(Operation *op, StringRef path,
                               StringRef contents) {
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file)
    return op->emitError() << "cannot write '" << path << "': " << error;
  file->os() << contents;
  file->keep();
  return success();
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

namespace {
struct WriteArtifactsPass
    : public credit::impl::CreditWriteArtifactsBase<WriteArtifactsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto manifests = module->getAttrOfType<DictionaryAttr>("credit.kernels");
    if (!dir.empty()) {
      if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
        module.emitError() << "cannot create '" << dir << "': " << ec.message();
        return signalPassFailure();
      }
    }

    // Kernels written earlier into the same directory stay listed.
    llvm::json::Array index;
    llvm::StringSet<> listed;
    SmallString<256> indexPath(dir);
    llvm::sys::path::append(indexPath, "kernels.json");
    std::unique_ptr<llvm::MemoryBuffer> existing;
    if (!dir.empty())
      if (auto buffer = llvm::MemoryBuffer::getFile(indexPath))
        existing = std::move(*buffer);
    if (existing) {
      llvm::Expected<llvm::json::Value> parsed =
          llvm::json::parse(existing->getBuffer());
      if (!parsed) {
        llvm::consumeError(parsed.takeError());
      } else if (auto *object = parsed->getAsObject()) {
        if (auto *kernels = object->getArray("kernels"))
          for (const llvm::json::Value &entry : *kernels)
            if (std::optional<StringRef> file = entry.getAsString())
              if (listed.insert(*file).second)
                index.push_back(file->str());
      }
    }

    for (auto binary : module.getOps<gpu::BinaryOp>()) {
      StringRef name = binary.getSymName();
      DictionaryAttr manifest =
          manifests ? manifests.getAs<DictionaryAttr>(name) : DictionaryAttr();
      if (!manifest)
        continue; // not a CREDIT kernel
      auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly) {
        binary.emitError("credit-write-artifacts expects PTX (format isa)");
        return signalPassFailure();
      }
      StringRef ptx = object.getObject().getValue();

      // Without a directory, PTX goes to a temporary file for ptxas only.
      SmallString<256> ptxPath(dir), cubinPath(dir), jsonPath(dir);
      bool temporary = dir.empty();
      if (temporary) {
        if (ptxas.empty())
          continue;
        llvm::sys::fs::createTemporaryFile(name, "ptx", ptxPath);
        llvm::sys::fs::createTemporaryFile(name, "cubin", cubinPath);
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
        if (temporary) {
          llvm::sys::fs::remove(ptxPath);
          llvm::sys::fs::remove(cubinPath);
        }
        if (failed(report))
          return signalPassFailure();
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
      if (listed.insert((name + ".json").str()).second)
        index.push_back((name + ".json").str());
    }

    if (!dir.empty()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                       {"kernels", std::move(index)}}))
         << "\n";
      if (failed(writeFile(module, indexPath, text)))
        return signalPassFailure();
    }
  }
};
} // namespace
