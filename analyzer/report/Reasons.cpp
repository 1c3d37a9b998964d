//===- Reasons.cpp - Why an access is unknown, what a prediction assumes --===//

#include "report/Reasons.h"

#include <algorithm>

#include <cassert>
#include <vector>

namespace coalesce {

namespace {

struct Entry {
  const char *Name, *Text;
  ReasonKind Family;
};

const Entry ReasonEntries[] = {
    {"", "", ReasonKind::None},
#define REASON(Id, Name, Text) {Name, Text, ReasonKind::Id},
#define REASON_OF(Id, Family, Name, Text) {Name, Text, ReasonKind::Family},
#include "report/Reasons.def"
};

const Entry AssumptionEntries[] = {
#define ASSUMPTION(Id, Name, Text) {Name, Text, ReasonKind::None},
#include "report/Reasons.def"
};

} // namespace

namespace {

std::string render(const char *Template, const std::vector<std::string> &A) {
  std::string Out;
  for (const char *P = Template; *P; ++P) {
    if (*P == '{' && P[1] >= '0' && P[1] <= '9' && P[2] == '}') {
      const size_t I = size_t(P[1] - '0');
      assert(I < A.size() && "a placeholder without its argument");
      if (I < A.size())
        Out += A[I];
      P += 2;
      continue;
    }
    Out += *P;
  }
  return Out;
}

/// The argument of the first placeholder that Template quotes (`{0}` or
/// '{0}'), or "".
std::string quotedArgument(const char *Template, const std::vector<std::string> &A) {
  for (const char *P = Template; *P; ++P) {
    if ((*P == '`' || *P == '\'') && P[1] == '{' && P[2] >= '0' && P[2] <= '9' &&
        P[3] == '}' && P[4] == *P) {
      const size_t I = size_t(P[2] - '0');
      if (I < A.size())
        return A[I];
    }
  }
  return "";
}

} // namespace

std::string renderTemplate(const char *Template,
                           std::initializer_list<std::string> Args) {
  return render(Template, std::vector<std::string>(Args));
}

std::string renderReason(ReasonKind K, const std::vector<std::string> &Args) {
  return render(reasonTemplate(K), Args);
}

Reason makeReason(ReasonKind K, std::vector<std::string> Args) {
  Reason R;
  R.Kind = K;
  R.Cause = K;
  R.Args = std::move(Args);
  R.Text = renderReason(K, R.Args);
  R.Subject = quotedArgument(reasonTemplate(K), R.Args);
  return R;
}

Reason makeReason(ReasonKind K, std::initializer_list<std::string> Args) {
  return makeReason(K, std::vector<std::string>(Args));
}

Reason makeReason(const IntResult &Res) {
  if (Res.Ok)
    return Reason();
  return makeReason(reasonKind(Res.Why.Kind), Res.Why.Args);
}

Reason wrapReason(ReasonKind K, std::initializer_list<std::string> Args,
                  const Reason &Inner) {
  std::vector<std::string> All(Args);
  All.push_back(Inner.Text);
  Reason R = makeReason(K, std::move(All));
  R.Cause = Inner.empty() ? K : Inner.Cause;
  R.Settle = Inner.Settle;
  if (R.Subject.empty())
    R.Subject = Inner.Subject;
  return R;
}

std::vector<std::string> paramNamesOf(const std::vector<SymbolId> &Ids, const SymbolTable &Syms) {
  std::vector<std::string> Names;
  for (SymbolId S : Ids) {
    const SymbolInfo *P = &Syms.get(S);
    if (P->QuotientOf) // a quotient of a parameter: the parameter settles it
      P = &Syms.get(*P->QuotientOf);
    const SymbolInfo &I = *P;
    if (I.Kind != SymbolKind::Param)
      continue;
    const std::string &N = I.Source.empty() ? I.Name : I.Source;
    if (std::find(Names.begin(), Names.end(), N) == Names.end())
      Names.push_back(N);
  }
  return Names;
}

std::vector<std::string> assumeFactsFor(const std::vector<std::string> &Names) {
  std::vector<std::string> Facts;
  for (const std::string &N : Names)
    Facts.push_back("--assume " + N + "=VALUE");
  return Facts;
}

std::vector<std::string> assumeFactsFor(const std::vector<SymbolId> &Ids,
                                        const SymbolTable &Syms) {
  return assumeFactsFor(paramNamesOf(Ids, Syms));
}

ReasonKind reasonFamily(ReasonKind K) {
  return ReasonEntries[static_cast<size_t>(K)].Family;
}

ReasonKind reasonKind(IntFail F) {
  switch (F) {
  case IntFail::None:
    return ReasonKind::None;
#define INT_FAIL(Id, Name, Text)                                                                  \
  case IntFail::Id:                                                                               \
    return ReasonKind::Id;
#include "model/IntFailures.def"
  }
  return ReasonKind::None;
}

size_t reasonKindCount() { return sizeof(ReasonEntries) / sizeof(ReasonEntries[0]); }
size_t assumptionKindCount() {
  return sizeof(AssumptionEntries) / sizeof(AssumptionEntries[0]);
}

Assumption makeAssumption(AssumptionKind K,
                          std::initializer_list<std::string> Args) {
  return Assumption{K, renderTemplate(assumptionTemplate(K), Args)};
}

const char *reasonKindName(ReasonKind K) {
  return ReasonEntries[static_cast<size_t>(K)].Name;
}
const char *assumptionKindName(AssumptionKind K) {
  return AssumptionEntries[static_cast<size_t>(K)].Name;
}
const char *reasonTemplate(ReasonKind K) {
  return ReasonEntries[static_cast<size_t>(K)].Text;
}
const char *assumptionTemplate(AssumptionKind K) {
  return AssumptionEntries[static_cast<size_t>(K)].Text;
}

} // namespace coalesce
