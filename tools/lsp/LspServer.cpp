//===- LspServer.cpp - coalesce-lint as a language server ----------------===//

#include "LspServer.h"

#include "Diagnostics.h"
#include "Document.h"
#include "FileSetup.h"
#include "Findings.h"
#include "Hover.h"
#include "InlayHints.h"
#include "Positions.h"
#include "ServerOptions.h"
#include "SourceKey.h"
#include "Suppressions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <iostream>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

namespace coalesce {
namespace lsp {

namespace {

using llvm::json::Value;
using Clock = std::chrono::steady_clock;

//===--- Protocol additions ------------------------------------------------===//

/// What initialize says about the client, beyond llvm::lsp::InitializeParams.
struct InitializeArgs {
  ClientSupport Client;
  bool InlayHintRefresh = false;
};

bool fromJSON(const Value &V, InitializeArgs &R, llvm::json::Path P) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O) {
    P.report("expected object");
    return false;
  }
  const llvm::json::Object *Caps = O->getObject("capabilities");
  if (!Caps)
    return true;
  if (const llvm::json::Object *General = Caps->getObject("general"))
    if (const llvm::json::Array *Encs = General->getArray("positionEncodings"))
      for (const Value &E : *Encs)
        if (E.getAsString() == std::optional<llvm::StringRef>("utf-8"))
          R.Client.Positions = Encoding::UTF8; // no conversion: preferred
  if (const llvm::json::Object *Doc = Caps->getObject("textDocument")) {
    if (const llvm::json::Object *Pub = Doc->getObject("publishDiagnostics"))
      R.Client.RelatedInformation = Pub->getBoolean("relatedInformation").value_or(false);
    if (const llvm::json::Object *H = Doc->getObject("hover"))
      if (const llvm::json::Array *Formats = H->getArray("contentFormat"))
        for (const Value &F : *Formats)
          if (F.getAsString() == std::optional<llvm::StringRef>("markdown"))
            R.Client.MarkdownHover = true;
  }
  if (const llvm::json::Object *Ws = Caps->getObject("workspace"))
    if (const llvm::json::Object *IH = Ws->getObject("inlayHint"))
      R.InlayHintRefresh = IH->getBoolean("refreshSupport").value_or(false);
  return true;
}

struct DidSaveParams {
  llvm::lsp::TextDocumentIdentifier textDocument;
};
bool fromJSON(const Value &V, DidSaveParams &R, llvm::json::Path P) {
  llvm::json::ObjectMapper O(V, P);
  return O && O.map("textDocument", R.textDocument);
}

struct PublishParams {
  llvm::lsp::URIForFile Uri;
  std::optional<int64_t> Version;
  std::vector<Diagnostic> Diagnostics;
};
Value toJSON(const PublishParams &P) {
  llvm::json::Array Ds;
  for (const Diagnostic &D : P.Diagnostics)
    Ds.push_back(toJSON(D));
  llvm::json::Object O{{"uri", P.Uri.uri().str()}, {"diagnostics", std::move(Ds)}};
  if (P.Version)
    O["version"] = *P.Version;
  return O;
}

struct LogParams {
  llvm::lsp::MessageType Type;
  std::string Message;
};
Value toJSON(const LogParams &P) {
  return llvm::json::Object{{"type", static_cast<int>(P.Type)}, {"message", P.Message}};
}

/// Documents the server analyses: .cu and .cuh files, and any file the
/// editor says is CUDA (VS Code's "cuda-cpp", Neovim's "cuda"). Editors that
/// attach servers to all C++ files (Helix files .cu under cpp) send .cpp and
/// .h files too: those are left to clangd.
bool isCuda(llvm::StringRef Path, llvm::StringRef LanguageId) {
  return Path.ends_with(".cu") || Path.ends_with(".cuh") || LanguageId == "cuda" ||
         LanguageId == "cuda-cpp";
}

//===--- The result cache ----------------------------------------------------===//

/// Analyses by everything they depend on besides the headers: the text, the
/// file's path, the clang command and the analysis options. The most
/// recently used Capacity entries are kept.
class ResultCache {
public:
  static std::string key(const FileJob &J, const RunOptions &RO) {
    std::string K = J.File + '\0' + J.Directory + '\0';
    K += J.Focus + '\0';
    for (const std::string &A : J.Args)
      K += A + '\0';
    K += J.BuiltinHeaders ? "builtin" : "toolkit";
    for (const BlockChoice &B : RO.Analysis.Blocks)
      K += '\0' + B.Kernel + "=" + B.Block.str() + "=" + B.Spelling;
    for (const StatedFact &F : RO.Analysis.Facts)
      K += '\0' + F.str() + "|" + F.Spelling;
    K += '\0' + RO.Analysis.BlockOption + '\0' + RO.CacheDir + '\0';
    K += std::to_string(int(RO.Witness.M)) + RO.Witness.Given + '\0';
    return K + (J.Contents ? *J.Contents : std::string());
  }
  std::shared_ptr<const RunResult> get(const std::string &Key) {
    auto It = Index.find(Key);
    if (It == Index.end())
      return nullptr;
    Order.splice(Order.begin(), Order, It->second);
    return It->second->second;
  }
  void put(const std::string &Key, std::shared_ptr<const RunResult> R) {
    if (auto It = Index.find(Key); It != Index.end()) {
      Order.erase(It->second);
      Index.erase(It);
    }
    Order.emplace_front(Key, std::move(R));
    Index[Key] = Order.begin();
    while (Order.size() > Capacity) {
      Index.erase(Order.back().first);
      Order.pop_back();
    }
  }

private:
  static constexpr size_t Capacity = 32;
  using Entry = std::pair<std::string, std::shared_ptr<const RunResult>>;
  std::list<Entry> Order;
  std::map<std::string, std::list<Entry>::iterator> Index;
};

//===--- Reading messages --------------------------------------------------===//

/// Reads framed messages from a file like JSONTransportInputOverFile and
/// shows each one to Seen before the transport dispatches it (see the file
/// comment of LspServer.h).
class TappedInput : public llvm::lsp::JSONTransportInput {
public:
  TappedInput(std::FILE *In, std::function<void(const Value &)> Seen)
      : Inner(In), Seen(std::move(Seen)) {}
  bool hasError() const override { return Inner.hasError(); }
  bool isEndOfInput() const override { return Inner.isEndOfInput(); }
  llvm::LogicalResult readStandardMessage(std::string &Json) override {
    return tap(Inner.readStandardMessage(Json), Json);
  }
  llvm::LogicalResult readDelimitedMessage(std::string &Json) override {
    return tap(Inner.readDelimitedMessage(Json), Json);
  }

private:
  llvm::LogicalResult tap(llvm::LogicalResult R, const std::string &Json) {
    if (llvm::succeeded(R)) {
      if (llvm::Expected<Value> V = llvm::json::parse(Json))
        Seen(*V);
      else
        llvm::consumeError(V.takeError()); // the transport reports it
    }
    return R;
  }
  llvm::lsp::JSONTransportInputOverFile Inner;
  std::function<void(const Value &)> Seen;
};

//===--- The server ----------------------------------------------------------===//

class Server {
public:
  Server(llvm::lsp::JSONTransport &T, ServerOptions Opts)
      : Opts(std::move(Opts)), Handler(T) {
    Handler.method("initialize", this, &Server::onInitialize);
    Handler.notification("initialized", this, &Server::onInitialized);
    Handler.method("shutdown", this, &Server::onShutdown);
    Handler.notification("textDocument/didOpen", this, &Server::onDidOpen);
    Handler.notification("textDocument/didChange", this, &Server::onDidChange);
    Handler.notification("textDocument/didSave", this, &Server::onDidSave);
    Handler.notification("textDocument/didClose", this, &Server::onDidClose);
    Handler.method("textDocument/inlayHint", this, &Server::onInlayHint);
    Handler.method("textDocument/hover", this, &Server::onHover);
    Handler.method("textDocument/codeAction", this, &Server::onCodeAction);
    Publish = Handler.outgoingNotification<PublishParams>("textDocument/publishDiagnostics");
    LogMessage = Handler.outgoingNotification<LogParams>("window/logMessage");
    RefreshHints = Handler.outgoingRequest<std::nullptr_t, llvm::lsp::NoParams>(
        "workspace/inlayHint/refresh", [](Value, llvm::Expected<llvm::lsp::NoParams> R) {
          if (!R)
            llvm::consumeError(R.takeError());
        });
    Worker = std::thread([this] { work(); });
    Compiler = std::thread([this] { compileLoop(); });
  }
  ~Server() { stop(); }

  llvm::lsp::MessageHandler &handler() { return Handler; }
  bool shutdownRequested() const { return ShutdownRequested; }

  /// Every incoming message, before it is dispatched (main thread).
  void seen(const Value &Msg) {
    const llvm::json::Object *O = Msg.getAsObject();
    if (!O)
      return;
    std::optional<llvm::StringRef> Method = O->getString("method");
    if (!Method)
      return;
    if (*Method == "$/cancelRequest") {
      if (const llvm::json::Object *P = O->getObject("params"))
        if (const Value *Id = P->get("id"))
          cancel(*Id);
      return;
    }
    if (const Value *Id = O->get("id"))
      CurrentId = *Id;
  }

  void stop() {
    {
      std::lock_guard<std::mutex> L(M);
      if (Stopping)
        return;
      Stopping = true;
    }
    CV.notify_all();
    if (Worker.joinable())
      Worker.join();
    if (Compiler.joinable())
      Compiler.join();
  }

private:
  using Reply = llvm::lsp::Callback<Value>;
  using Answer = std::function<Value(const AnalysedDocument *)>;

  struct OpenDocument {
    llvm::lsp::URIForFile Uri;
    std::string Text;
    int64_t Version = 0;
    /// Changes with every open and edit (a reopened document may start its
    /// versions again): what analyses and requests are matched by.
    uint64_t Generation = 0;
    bool Cuda = true;      // analysed at all (see isCuda)
    bool Queued = false;   // needs an analysis
    bool Fresh = false;    // ... not from the result cache (after a save)
    Clock::time_point Due; // ... not before this (edits are debounced)
    std::shared_ptr<const AnalysedDocument> Latest; // of the newest version analysed
    uint64_t LatestGeneration = 0;
    uint64_t WitnessCompiled = 0; // the generation the witness was compiled for
    bool current() const { return Latest && LatestGeneration == Generation; }
  };
  struct Waiting {
    Value Id;
    std::string Path;
    Answer Make;
    Reply Send;
  };

  //===--- Requests and notifications (main thread) ----------------------===//

  void onInitialize(const InitializeArgs &A, Reply R) {
    Client = A.Client;
    Client.RelatedInformation = A.Client.RelatedInformation && !Opts.NotesInMessage;
    InlayHintRefresh = A.InlayHintRefresh;
    llvm::json::Object Caps{
        {"positionEncoding", encodingName(Client.Positions)},
        {"textDocumentSync",
         llvm::json::Object{{"openClose", true},
                            {"change", 2}, // incremental
                            {"save", llvm::json::Object{{"includeText", false}}}}},
        {"hoverProvider", true},
        {"inlayHintProvider", true},
        {"codeActionProvider",
         llvm::json::Object{{"codeActionKinds", llvm::json::Array{"quickfix"}}}}};
    R(llvm::json::Object{
        {"capabilities", std::move(Caps)},
        {"serverInfo", llvm::json::Object{{"name", "coalesce-lint"}, {"version", COALESCE_VERSION}}}});
  }

  void onInitialized(const llvm::lsp::InitializedParams &) {}

  void onShutdown(const llvm::lsp::NoParams &, Reply R) {
    ShutdownRequested = true;
    R(nullptr);
  }

  void onDidOpen(const llvm::lsp::DidOpenTextDocumentParams &P) {
    {
      std::lock_guard<std::mutex> L(M);
      OpenDocument &D = Docs[P.textDocument.uri.file().str()];
      D.Uri = P.textDocument.uri;
      D.Cuda = isCuda(D.Uri.file(), P.textDocument.languageId);
      if (!D.Cuda)
        log(llvm::lsp::MessageType::Info,
            D.Uri.file().str() + ": not a CUDA file (.cu, .cuh or language cuda): not analysed");
      D.Text = P.textDocument.text;
      D.Version = P.textDocument.version;
      D.Generation = ++Generations;
      D.Latest = nullptr;
      schedule(D, /*Debounce=*/false, /*Fresh=*/false);
    }
    CV.notify_all();
  }

  void onDidChange(const llvm::lsp::DidChangeTextDocumentParams &P) {
    {
      std::lock_guard<std::mutex> L(M);
      auto It = Docs.find(P.textDocument.uri.file().str());
      if (It == Docs.end())
        return;
      OpenDocument &D = It->second;
      for (const llvm::lsp::TextDocumentContentChangeEvent &C : P.contentChanges)
        if (!applyChange(D.Text, C, Client.Positions))
          log(llvm::lsp::MessageType::Error,
              D.Uri.file().str() + ": an edit with a malformed range was ignored");
      D.Version = P.textDocument.version;
      D.Generation = ++Generations;
      schedule(D, /*Debounce=*/true, /*Fresh=*/false);
    }
    CV.notify_all();
  }

  void onDidSave(const DidSaveParams &P) {
    {
      std::lock_guard<std::mutex> L(M);
      auto It = Docs.find(P.textDocument.uri.file().str());
      if (It == Docs.end())
        return;
      schedule(It->second, /*Debounce=*/false, /*Fresh=*/true);
    }
    CV.notify_all();
  }

  void onDidClose(const llvm::lsp::DidCloseTextDocumentParams &P) {
    const std::string Path = P.textDocument.uri.file().str();
    std::vector<Waiting> Orphans;
    {
      std::lock_guard<std::mutex> L(M);
      if (!Docs.erase(Path))
        return;
      Orphans = takeWaiting(Path);
    }
    for (Waiting &W : Orphans)
      W.Send(W.Make(nullptr));
    Publish(PublishParams{P.textDocument.uri, std::nullopt, {}});
  }

  void onInlayHint(const llvm::lsp::InlayHintsParams &P, Reply R) {
    const llvm::lsp::Range Range = P.range;
    whenAnalysed(P.textDocument.uri, std::move(R), [this, Range](const AnalysedDocument *D) {
      llvm::json::Array Out;
      if (D)
        for (const InlayHint &H : inlayHints(*D, Range, Client))
          Out.push_back(toJSON(H));
      return Value(std::move(Out));
    });
  }

  void onHover(const llvm::lsp::TextDocumentPositionParams &P, Reply R) {
    const llvm::lsp::Position Pos = P.position;
    whenAnalysed(P.textDocument.uri, std::move(R), [this, Pos](const AnalysedDocument *D) {
      std::optional<llvm::lsp::Hover> H = D ? hover(*D, Pos, Client) : std::nullopt;
      return H ? llvm::lsp::toJSON(*H) : Value(nullptr);
    });
  }

  void onCodeAction(const llvm::lsp::CodeActionParams &P, Reply R) {
    const llvm::lsp::Range Range = P.range;
    whenAnalysed(P.textDocument.uri, std::move(R), [this, Range](const AnalysedDocument *D) {
      llvm::json::Array Out;
      if (D)
        for (const CodeAction &A : codeActions(*D, Range, Client))
          Out.push_back(toJSON(A));
      return Value(std::move(Out));
    });
  }

  /// Answers now if the document's current version is analysed, else when
  /// it is (or the document is closed, or the request cancelled).
  void whenAnalysed(const llvm::lsp::URIForFile &Uri, Reply R, Answer Make) {
    std::shared_ptr<const AnalysedDocument> Ready;
    {
      std::lock_guard<std::mutex> L(M);
      auto It = Docs.find(Uri.file().str());
      if (It != Docs.end() && !It->second.current()) {
        Waiters.push_back(Waiting{CurrentId, It->first, std::move(Make), std::move(R)});
        return;
      }
      if (It != Docs.end())
        Ready = It->second.Latest;
    }
    R(Make(Ready.get()));
  }

  void cancel(const Value &Id) {
    std::optional<Waiting> W;
    {
      std::lock_guard<std::mutex> L(M);
      for (auto It = Waiters.begin(); It != Waiters.end(); ++It)
        if (It->Id == Id) {
          W = std::move(*It);
          Waiters.erase(It);
          break;
        }
    }
    if (W)
      W->Send(llvm::make_error<llvm::lsp::LSPError>("cancelled",
                                                    llvm::lsp::ErrorCode::RequestCancelled));
  }

  /// (M held.)
  void schedule(OpenDocument &D, bool Debounce, bool Fresh) {
    D.Queued = true;
    D.Fresh = D.Fresh || Fresh;
    D.Due = Clock::now() + std::chrono::milliseconds(Debounce ? Opts.DebounceMs : 0);
  }

  /// (M held.) The requests waiting for Path, removed.
  std::vector<Waiting> takeWaiting(const std::string &Path) {
    std::vector<Waiting> Out, Keep;
    for (Waiting &W : Waiters)
      (W.Path == Path ? Out : Keep).push_back(std::move(W));
    Waiters = std::move(Keep);
    return Out;
  }

  void log(llvm::lsp::MessageType T, const std::string &Msg) { LogMessage(LogParams{T, Msg}); }

  //===--- Analysis (worker thread) ----------------------------------------===//

  struct Snapshot {
    std::string Path;
    llvm::lsp::URIForFile Uri;
    std::string Text;
    int64_t Version;
    uint64_t Generation;
    bool Cuda;
    bool Fresh;
  };

  /// The compiler witness's compiles, one at a time, newest request per
  /// document: when one lands for the version it was asked for, that
  /// version is analysed again, with the witness.
  void compileLoop() {
    std::unique_lock<std::mutex> L(M);
    while (!Stopping) {
      if (Compiles.empty()) {
        CV.wait(L);
        continue;
      }
      auto First = Compiles.begin();
      const std::string Path = First->first;
      PendingCompile P = std::move(First->second);
      Compiles.erase(First);
      auto Doc = Docs.find(Path);
      if (Doc == Docs.end() || Doc->second.Generation != P.Generation)
        continue; // closed or edited meanwhile
      L.unlock();
      const Clock::time_point T0 = Clock::now();
      WitnessResult W = runWitness(P.Job, P.Options);
      const long long Ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - T0).count();
      log(llvm::lsp::MessageType::Log,
          Path + ": compiler witness " +
              (W.Module ? "compiled in " + std::to_string(Ms) + " ms: analysing again"
                        : "not used: " + W.NotUsed));
      L.lock();
      Doc = Docs.find(Path);
      if (Doc != Docs.end())
        Doc->second.WitnessCompiled = P.Generation;
      if (W.Module && Doc != Docs.end() && Doc->second.Generation == P.Generation) {
        schedule(Doc->second, /*Debounce=*/false, /*Fresh=*/false);
        CV.notify_all();
      }
    }
  }

  void work() {
    std::unique_lock<std::mutex> L(M);
    while (!Stopping) {
      // The document due first; documents edited later wait their debounce.
      OpenDocument *Next = nullptr;
      std::string Path;
      std::optional<Clock::time_point> Earliest;
      const Clock::time_point Now = Clock::now();
      for (auto &[P, D] : Docs) {
        if (!D.Queued)
          continue;
        if (D.Due <= Now && (!Next || D.Due < Next->Due)) {
          Next = &D;
          Path = P;
        } else if (D.Due > Now && (!Earliest || D.Due < *Earliest)) {
          Earliest = D.Due;
        }
      }
      if (!Next) {
        if (Earliest)
          CV.wait_until(L, *Earliest);
        else
          CV.wait(L);
        continue;
      }
      Snapshot S{Path,           Next->Uri,  Next->Text, Next->Version,
                 Next->Generation, Next->Cuda, Next->Fresh};
      Next->Queued = Next->Fresh = false;
      L.unlock();
      std::shared_ptr<const AnalysedDocument> Doc = analyse(S);
      L.lock();
      auto It = Docs.find(Path);
      if (It == Docs.end())
        continue; // closed meanwhile
      if (It->second.Generation != S.Generation) {
        L.unlock();
        log(llvm::lsp::MessageType::Log,
            Path + ": the analysis of version " + std::to_string(S.Version) +
                " is outdated (the document changed since; now version " +
                std::to_string(It->second.Version) + "): its results are dropped");
        L.lock();
        continue;
      }
      const bool Again = It->second.current();
      It->second.Latest = Doc;
      It->second.LatestGeneration = S.Generation;
      std::vector<Waiting> Ready = takeWaiting(Path);
      L.unlock();
      Publish(PublishParams{S.Uri, S.Version, diagnostics(*Doc, Client)});
      for (Waiting &W : Ready)
        W.Send(W.Make(Doc.get()));
      // Same version analysed again (after a save): hints may have changed.
      if (Again && InlayHintRefresh)
        RefreshHints(nullptr, Value("coalesce-refresh-" + std::to_string(++RefreshCount)));
      L.lock();
    }
  }

  std::shared_ptr<const AnalysedDocument> analyse(const Snapshot &S) {
    auto Doc = std::make_shared<AnalysedDocument>();
    Doc->Path = S.Path;
    Doc->Uri = S.Uri;
    Doc->Version = S.Version;
    Doc->Text = S.Text;
    if (!S.Cuda)
      return Doc; // nothing to say

    // Read again for every analysis: the user may be editing them.
    ConfigCache Configs;
    llvm::Expected<FileSettings> Settings = settingsForFile(S.Path, Opts.Over, Configs);
    if (!Settings) {
      Doc->Problem = "coalesce-lint: " + llvm::toString(Settings.takeError());
      return Doc;
    }
    JobPlan Plan = planner(S.Path).plan(S.Path, Settings->GpuArch);
    for (const std::string &W : Plan.Warnings)
      log(llvm::lsp::MessageType::Warning, "coalesce-lint: warning: " + W);
    if (!Plan.Job) {
      Doc->Problem = "coalesce-lint: " + Plan.Error;
      return Doc;
    }
    FileJob Job = std::move(*Plan.Job);
    Job.Contents = S.Text;
    RunOptions RO;
    RO.Analysis.Blocks = Settings->Blocks;
    RO.Analysis.Facts = Settings->Facts;
    RO.Jobs = 1;
    RO.CacheDir = Opts.CacheDir;
    RO.Witness = Opts.Witness;
    // The compiler witness from its cache only: a compile not done yet runs
    // in the background (compileLoop()), and the document is analysed again
    // when it lands (docs/witness.md).
    RO.Witness.CacheOnly = RO.Witness.M == WitnessOptions::Mode::Auto;

    const std::string Key = ResultCache::key(Job, RO);
    std::shared_ptr<const RunResult> R = S.Fresh ? nullptr : Cache.get(Key);
    const std::string What = S.Path + " (version " + std::to_string(S.Version) + ")";
    // The kernels an edit did not touch keep their results from the last
    // analysis of this document (analyzer/KernelReuse.h).
    std::shared_ptr<KernelReuse> Reuse;
    if (Job.Focus.empty()) {
      {
        std::lock_guard<std::mutex> L(M);
        for (auto It = Reused.begin(); It != Reused.end();)
          It = Docs.count(It->first) ? std::next(It) : Reused.erase(It);
      }
      std::shared_ptr<KernelReuse> &Slot = Reused[S.Path];
      if (!Slot)
        Slot = std::make_shared<KernelReuse>();
      Reuse = Slot;
      FileJob Salted = Job;
      Salted.Contents = std::nullopt;
      RO.Analysis.Reuse = Reuse;
      RO.Analysis.ReuseSalt = ResultCache::key(Salted, RO);
    }
    if (R) {
      log(llvm::lsp::MessageType::Log, What + ": unchanged, answered from the cache");
    } else {
      const Clock::time_point T0 = Clock::now();
      const unsigned ReusedBefore = Reuse ? Reuse->reused() : 0;
      std::vector<RunResult> Results = runAnalysis({Job}, RO);
      const unsigned ReusedNow = Reuse ? Reuse->reused() - ReusedBefore : 0;
      R = std::make_shared<const RunResult>(std::move(Results.front()));
      if (R->Witness.Deferred) {
        // Not kept: the analysis with the witness replaces it. Compiled
        // once per version: a cache that cannot be written is not retried.
        WitnessOptions WO = RO.Witness;
        WO.CacheOnly = false;
        WO.CacheDir = RO.CacheDir;
        std::lock_guard<std::mutex> L(M);
        auto Doc = Docs.find(S.Path);
        if (Doc != Docs.end() && Doc->second.WitnessCompiled != S.Generation) {
          Compiles[S.Path] = PendingCompile{Job, WO, S.Generation};
          CV.notify_all();
        }
      } else {
        Cache.put(Key, R);
      }
      const long long Ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - T0).count();
      log(llvm::lsp::MessageType::Log,
          What + ": analysed in " + std::to_string(Ms) + " ms" +
              (R->UsedPreamble ? R->BuiltPreamble ? " (headers precompiled now)"
                                                  : " (headers from the cache)"
                               : "") +
              (ReusedNow ? "; " + std::to_string(ReusedNow) + " of " +
                               std::to_string(R->Report.Kernels.size()) +
                               " kernels unchanged, their results kept"
                         : ""));
      if (!R->CacheProblem.empty())
        log(llvm::lsp::MessageType::Warning,
            "coalesce-lint: warning: headers are parsed without the cache: " + R->CacheProblem);
    }
    for (const std::string &N : R->Report.Notes)
      log(llvm::lsp::MessageType::Info, S.Path + ": note: " + N);
    if (R->Failed) {
      describeFailure(*R, Job, Plan.FromDb, *Doc);
      return Doc;
    }
    Doc->Result = R;

    // The rules' findings in this document, without those its comments silence.
    std::vector<std::string> Lines;
    LineTable Table(S.Text);
    for (unsigned I = 0; I < Table.lines(); ++I)
      Lines.push_back(Table.line(I).str());
    FileSuppressions Suppressed(Lines);
    // The policy every front-end applies (Findings.h): here, findings in
    // other files (headers) belong to those files' documents.
    Doc->Findings = applyPolicy(R->Report.Accesses, {Settings->Rules, Settings->EnabledRules},
                                [&](const Finding &F) -> Silence {
                                  if (F.Pos.File != S.Path)
                                    return {"other-file", "in another file"};
                                  std::string By =
                                      Suppressed.suppressedBy(F.Pos.Line, F.checkName());
                                  if (!By.empty())
                                    return {"suppressed", "suppressed by " + By};
                                  return {};
                                })
                        .Shown;
    return Doc;
  }

  /// The planner of Path's command. Compile databases are loaded once and
  /// again when the one of Path has changed on disk (a build reconfigured).
  JobPlanner &planner(const std::string &Path) {
    std::string DbDir = Opts.Setup.CompileDb;
    if (DbDir.empty() && !Opts.Setup.NoCompileDb)
      DbDir = findCompileDbFor(Path);
    if (!DbDir.empty()) {
      llvm::sys::fs::file_status St;
      std::pair<llvm::sys::TimePoint<>, uint64_t> Stamp;
      if (!llvm::sys::fs::status(DbDir + "/compile_commands.json", St))
        Stamp = {St.getLastModificationTime(), St.getSize()};
      auto [It, New] = DbStamps.try_emplace(DbDir, Stamp);
      if (!New && It->second != Stamp) {
        It->second = Stamp;
        Planner.reset();
      }
    }
    if (!Planner)
      Planner = std::make_unique<JobPlanner>(Opts.Setup);
    return *Planner;
  }

  /// A parse failure as one problem: clang's first error, where it is when
  /// it is in this file, and the CLI's hint about the set-up.
  void describeFailure(const RunResult &R, const FileJob &Job, bool FromDb,
                       AnalysedDocument &Doc) {
    if (!R.Refused.empty()) {
      Doc.Problem = "coalesce-lint: " + R.Refused;
      return;
    }
    static const std::regex Error("^(.*):([0-9]+):([0-9]+): (fatal )?error: (.*)$");
    std::istringstream In(R.ClangDiagnostics);
    std::string Line, First;
    std::smatch M;
    while (std::getline(In, Line))
      if (std::regex_match(Line, M, Error)) {
        First = M[5].str();
        if (absolutePath(M[1].str()) == Doc.Path) {
          Doc.ProblemLine = static_cast<unsigned>(std::stoul(M[2].str()));
          Doc.ProblemColumn = static_cast<unsigned>(std::stoul(M[3].str()));
        } else {
          First = M[1].str() + ":" + M[2].str() + ":" + M[3].str() + ": " + First;
        }
        break;
      }
    const std::string Includer = includingFile(Doc.Path);
    Doc.Problem = "coalesce-lint: not analysed: the file does not parse" +
                  (First.empty() ? std::string() : " (" + First + ")") +
                  (Includer.empty() ? std::string()
                                    : "; it is #included by " + Includer +
                                          ", which is the file to analyse") +
                  parseFailureHint(Opts.Setup.Inv.CudaPath, R.ClangDiagnostics, FromDb,
                                   Job.BuiltinHeaders);
  }

  ServerOptions Opts;
  llvm::lsp::MessageHandler Handler;
  llvm::lsp::OutgoingNotification<PublishParams> Publish;
  llvm::lsp::OutgoingNotification<LogParams> LogMessage;
  llvm::lsp::OutgoingRequest<std::nullptr_t> RefreshHints;
  unsigned RefreshCount = 0;
  ClientSupport Client;
  bool InlayHintRefresh = false;
  bool ShutdownRequested = false;
  Value CurrentId = nullptr; // of the request being dispatched

  std::mutex M; // guards what follows
  std::condition_variable CV;
  std::map<std::string, OpenDocument> Docs; // by absolute path
  std::vector<Waiting> Waiters;
  uint64_t Generations = 0;
  bool Stopping = false;
  // The worker thread's own.
  ResultCache Cache;
  std::map<std::string, std::shared_ptr<KernelReuse>> Reused; // by path
  std::unique_ptr<JobPlanner> Planner;
  std::map<std::string, std::pair<llvm::sys::TimePoint<>, uint64_t>> DbStamps;
  std::thread Worker;
  /// Compiles for the witness waiting for compileLoop() (guarded by M).
  struct PendingCompile {
    FileJob Job;
    WitnessOptions Options;
    uint64_t Generation = 0;
  };
  std::map<std::string, PendingCompile> Compiles;
  std::thread Compiler;
};

} // namespace

int lspMain(int Argc, char **Argv) {
  ServerOptions Opts;
  if (std::optional<int> Exit = parseServerOptions(Argc, Argv, Opts))
    return *Exit;
  llvm::lsp::Logger::setLogLevel(Opts.LogLevel);
  Server *S = nullptr;
  auto Input = std::make_unique<TappedInput>(stdin, [&S](const Value &Msg) {
    if (S)
      S->seen(Msg);
  });
  llvm::lsp::JSONTransport Transport(std::move(Input), llvm::outs());
  Server Srv(Transport, std::move(Opts));
  S = &Srv;
  llvm::Error E = Transport.run(Srv.handler());
  Srv.stop();
  // LLVM's transport stops at the end of the input, at `exit`, and at a
  // message that is not JSON-RPC 2.0.
  const bool Clean = !E && Srv.shutdownRequested();
  if (E)
    llvm::consumeError(std::move(E));
  if (!Clean)
    std::cerr << "coalesce-lint lsp: stopped without a shutdown request (the input ended, or "
                 "a message was not JSON-RPC 2.0)\n";
  return Clean ? 0 : 1;
}

} // namespace lsp
} // namespace coalesce
