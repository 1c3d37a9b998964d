//===- CoalesceTidyModule.cpp - The coalesce clang-tidy module ------------===//
//
// Registers one check per rule of rules/Rules.def, named coalesce-<rule id>.
// Load with: clang-tidy-22 --load=build/lib/CoalesceTidyModule.so
//            --checks='-*,coalesce-*' FILE.cu -- -x cuda --cuda-device-only ...
//===----------------------------------------------------------------------===//

#include "CoalesceCheck.h"

#include "clang-tidy/ClangTidyModule.h"

#include <memory>

namespace coalesce {
namespace tidy {

namespace {

class CoalesceModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
#define COALESCE_RULE(Class, Id, Summary)                                      \
  Factories.registerCheckFactory(                                              \
      "coalesce-" Id,                                                          \
      [](llvm::StringRef Name, clang::tidy::ClangTidyContext *Context) {       \
        return std::make_unique<CoalesceCheck>(Name, Context, Id);             \
      });
#include "Rules.def"
  }
};

} // namespace

} // namespace tidy
} // namespace coalesce

static clang::tidy::ClangTidyModuleRegistry::Add<coalesce::tidy::CoalesceModule>
    X("coalesce-module", "Predicts uncoalesced global, bank-conflicted "
                         "shared and serialised constant accesses in CUDA kernels.");
