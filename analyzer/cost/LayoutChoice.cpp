//===- LayoutChoice.cpp - One layout fix per shared array -----------------===//

#include "cost/LayoutChoice.h"
#include "report/Numbers.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace coalesce {

namespace {

std::string unitName(const ArrayShape &S, unsigned UnitBytes) {
  if (int64_t(UnitBytes) == S.ElemSize)
    return S.ElemSize == 1 ? "elements" : std::to_string(UnitBytes) + "-byte elements";
  return std::to_string(UnitBytes) + "-byte chunks";
}

/// `c ^ ((r & 7) << 2)` for one use; `((b ^ ((r & 3) << 3)) + i)` where
/// its column splits as b + i for the swizzle's units (swizzleSplit()).
std::string swizzledColumn(const ArrayEditPlan::Use &U, const ArrayShape &S,
                           const SharedLayout &L) {
  std::string Col = U.ColSimple ? U.ColText : "(" + U.ColText + ")";
  std::optional<SwizzleSplit> Split;
  if (L.UnitBytes % S.ElemSize == 0)
    Split = swizzleSplit(U, L.UnitBytes / S.ElemSize);
  if (Split)
    Col = Split->Base.empty() ? "" : Split->BaseSimple ? Split->Base : "(" + Split->Base + ")";
  const std::string Row = U.RowSimple ? U.RowText : "(" + U.RowText + ")";
  const std::string Mask = std::to_string((int64_t(1) << L.Bits) - 1);
  std::string Bits = L.Shift ? "((" + Row + " >> " + std::to_string(L.Shift) + ") & " + Mask + ")"
                             : "(" + Row + " & " + Mask + ")";
  const unsigned Up = floorLog2(L.UnitBytes / S.ElemSize);
  if (Up)
    Bits = "(" + Bits + " << " + std::to_string(Up) + ")";
  if (Split)
    return "(" + (Col.empty() ? Bits : Col + " ^ " + Bits) + ") + " + Split->Rest;
  return Col + " ^ " + Bits;
}

/// A one-dimensional array's row length as its indices write it: "`BM`",
/// or the number.
std::string rowLengthText(const ArrayEditPlan &P) {
  const std::string &K = P.DimTexts.back();
  if (K.find_first_not_of("0123456789") == std::string::npos)
    return K;
  return "`" + K + "`";
}

/// How the layout reads in a message: the declaration or an access.
std::string describe(const ArrayEditPlan &P, const SharedLayout &L, const std::string &Written) {
  if (L.K == SharedLayout::Pad) {
    const int64_t Elems = L.PadBytes / P.Shape.ElemSize;
    if (P.RowLength)
      return "padding the rows of " + rowLengthText(P) + " elements of '" + P.Name +
             "' by " + quantity(double(Elems), "element") + " (" + Written + ")";
    return "padding the innermost dimension by " + quantity(double(Elems), "element") + " (" +
           Written + ")";
  }
  std::string Out = "XOR-swizzling the " + unitName(P.Shape, L.UnitBytes) + " of '" + P.Name +
                    "' by row" + (L.UnpadBytes ? " without the padding of its rows" : "") +
                    (P.RowLength ? " (rows of " + rowLengthText(P) + " elements: "
                                 : " (") +
                    Written;
  if (P.UsesCute)
    if (std::optional<CuteSwizzle> Z = cuteSwizzle(P.Shape, L))
      Out += "; CuTe Swizzle<" + std::to_string(Z->B) + ", " + std::to_string(Z->M) + ", " +
             std::to_string(Z->S) + "> on element offsets";
  return Out + ")";
}

/// The access as the swizzle writes it, with the row and column named r
/// and c: "tile[r][c ^ ((r & 7) << 2)]".
std::string swizzleForm(const ArrayEditPlan &P, const SharedLayout &L) {
  ArrayEditPlan::Use U;
  U.ColText = "c";
  U.RowText = "r";
  U.ColSimple = U.RowSimple = true;
  std::string Out = P.Name;
  for (size_t I = 0; I + 2 < P.Shape.Dims.size(); ++I)
    Out += "[i" + std::to_string(I) + "]";
  Out += "[r][" + swizzledColumn(U, P.Shape, L) + "]";
  if (L.UnpadBytes) {
    // The declaration without the padding, then the access.
    std::string Decl = P.Name;
    for (size_t I = 0; I + 1 < P.DimTexts.size(); ++I)
      Decl += "[" + P.DimTexts[I] + "]";
    Decl += "[" + std::to_string(P.Shape.Dims.back() - L.UnpadBytes / P.Shape.ElemSize) + "]";
    Out = Decl + ", " + Out;
  }
  return Out;
}

std::string blockList(const std::vector<const AccessRecord *> &Recs) {
  std::set<std::string> Seen;
  std::vector<std::string> Blocks;
  bool Assumed = false;
  for (const AccessRecord *R : Recs) {
    if (!R->Launch.BlockKnown)
      Assumed = true;
    if (Seen.insert(R->Launch.Block.str()).second)
      Blocks.push_back(R->Launch.Block.str());
  }
  std::string Out = Assumed ? "for the block shape assumed, blockDim " : "for blockDim ";
  for (size_t I = 0; I < Blocks.size(); ++I)
    Out += (I ? (I + 1 == Blocks.size() ? " and " : ", ") : "") + Blocks[I];
  return Out;
}

double weightOf(const AccessRecord &R) {
  return R.RequestsKnown && R.RequestsPerWarp > 0 ? R.RequestsPerWarp : 1.0;
}

/// A one-dimensional array seen as rows of K (ArrayEditPlan::RowLength):
/// padding rewrites K in every index and in the declared size; a swizzle
/// rewrites every index as `row * K + ((rest) ^ bits)`.
std::vector<SourceEdit> oneDimEdits(const ArrayEditPlan &P, const SharedLayout &L,
                                    std::string &Written, std::string &Why) {
  std::vector<SourceEdit> Out;
  std::set<std::pair<unsigned, unsigned>> Done;
  const std::string K = P.DimTexts.back();
  if (L.K == SharedLayout::Pad) {
    const int64_t Elems = L.PadBytes / P.Shape.ElemSize;
    const std::string Padded = "(" + K + " + " + std::to_string(Elems) + ")";
    std::string Size = P.DeclSizeText;
    if (P.SizeLiteral)
      Size = std::to_string(P.Shape.rows() * (P.RowLength + Elems));
    else if (P.FactorOffset + K.size() <= Size.size() && Size.compare(P.FactorOffset, K.size(), K) == 0)
      Size.replace(P.FactorOffset, K.size(), Padded);
    else
      Size = std::to_string(P.Shape.rows()) + " * " + Padded;
    Written = P.Name + "[" + Size + "]";
    if (!P.PadEditable) {
      Why = P.PadWhyNot;
      return {};
    }
    Out.push_back({P.SizePos, P.SizeLength,
                   P.SizeLiteral ? std::to_string(P.Shape.rows() * (P.RowLength + Elems))
                                 : Padded});
    for (const ArrayEditPlan::Use &U : P.Uses)
      if (Done.insert({U.FactorPos.Line, U.FactorPos.Column}).second)
        Out.push_back({U.FactorPos, U.FactorLength, "(" + U.FactorText + " + " +
                                                        std::to_string(Elems) + ")"});
    return Out;
  }
  ArrayEditPlan::Use Form;
  Form.ColText = "c";
  Form.RowText = "r";
  Form.ColSimple = Form.RowSimple = true;
  Written = P.Name + "[r * " + K + " + (" + swizzledColumn(Form, P.Shape, L) + ")]";
  if (L.UnpadBytes) {
    Why = "the rows of '" + P.Name + "' are not written shorter in its indices";
    return {};
  }
  if (!P.SwizzleEditable) {
    Why = P.SwizzleWhyNot;
    return {};
  }
  for (const ArrayEditPlan::Use &U : P.Uses) {
    if (!Done.insert({U.IndexPos.Line, U.IndexPos.Column}).second)
      continue;
    ArrayEditPlan::Use V = U;
    if (V.ColText.empty()) {
      V.ColText = "0";
      V.ColSimple = true;
    }
    Out.push_back({U.IndexPos, U.IndexLength,
                   U.RowTermText + " + (" + swizzledColumn(V, P.Shape, L) + ")"});
  }
  if (Out.empty())
    Why = "no use of '" + P.Name + "' to rewrite";
  return Out;
}

} // namespace

std::optional<SwizzleSplit> swizzleSplit(const ArrayEditPlan::Use &U, int64_t UnitElems) {
  if (UnitElems <= 1 || U.ColTerms.size() < 2)
    return std::nullopt;
  SwizzleSplit Out;
  int64_t Sum = 0;
  size_t BaseTerms = 0;
  for (const ArrayEditPlan::Use::Term &T : U.ColTerms) {
    if (T.Align % UnitElems == 0) {
      Out.Base += (Out.Base.empty() ? "" : " + ") + T.Text;
      ++BaseTerms;
      continue;
    }
    if (T.Max < 0 || T.Max >= UnitElems - Sum)
      return std::nullopt;
    Sum += T.Max;
    Out.Rest += (Out.Rest.empty() ? "" : " + ") + T.Text;
  }
  if (Out.Rest.empty() || Sum >= UnitElems)
    return std::nullopt;
  Out.BaseSimple = BaseTerms == 1 && std::all_of(Out.Base.begin(), Out.Base.end(), [](char C) {
                     return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '.';
                   });
  return Out;
}

std::vector<SourceEdit> layoutEdits(const ArrayEditPlan &P, const SharedLayout &L,
                                    std::string &Written, std::string &Why) {
  std::vector<SourceEdit> Out;
  if (P.RowLength)
    return oneDimEdits(P, L, Written, Why);
  if (L.K == SharedLayout::Pad) {
    const int64_t Elems = L.PadBytes / P.Shape.ElemSize;
    std::string Last;
    if (P.SizeLiteral)
      Last = std::to_string(P.Shape.Dims.back() + Elems);
    else
      Last = P.DimTexts.back() + " + " + std::to_string(Elems);
    Written = P.Name;
    for (size_t I = 0; I + 1 < P.DimTexts.size(); ++I)
      Written += "[" + P.DimTexts[I] + "]";
    Written += "[" + Last + "]";
    if (!P.PadEditable) {
      Why = P.PadWhyNot;
      return {};
    }
    if (P.SizeLiteral)
      Out.push_back({P.SizePos, P.SizeLength, Last});
    else
      Out.push_back({P.SizeEnd, 0, " + " + std::to_string(Elems)});
    return Out;
  }
  Written = swizzleForm(P, L);
  if (!P.SwizzleEditable) {
    Why = P.SwizzleWhyNot;
    return {};
  }
  // The row subscript is the row only if the outer dimensions keep its
  // bits: a [2][32][32] buffer's rows 32 + r have r's low bits.
  const size_t Rank = P.Shape.Dims.size();
  if (Rank > 2 && P.Shape.Dims[Rank - 2] % L.rowPeriod() != 0) {
    Why = "the swizzle's row bits reach past the second innermost dimension of '" + P.Name + "'";
    return {};
  }
  if (L.UnpadBytes) {
    // The padding goes: the innermost size, a number, written shorter.
    if (!P.PadEditable || !P.SizeLiteral) {
      Why = P.PadEditable ? "the innermost size of '" + P.Name + "' is not written as a number"
                          : P.PadWhyNot;
      return {};
    }
    Out.push_back({P.SizePos, P.SizeLength,
                   std::to_string(P.Shape.Dims.back() - L.UnpadBytes / P.Shape.ElemSize)});
  }
  std::set<std::pair<unsigned, unsigned>> Done;
  for (const ArrayEditPlan::Use &U : P.Uses)
    if (Done.insert({U.ColPos.Line, U.ColPos.Column}).second)
      Out.push_back({U.ColPos, U.ColLength, swizzledColumn(U, P.Shape, L)});
  if (Out.empty())
    Why = "no use of '" + P.Name + "' to rewrite";
  return Out;
}

namespace {

/// Whether layouts whose gain rests on a compile (LayoutSearch::NeedsCompile)
/// may be chosen: yes (to be checked), no compiler, or the compile said no.
enum class CompileVerdict { Allowed, NoCompiler, Refused };

/// Chooses the layout of one array (its records Recs). Returns the check to
/// make when the layout chosen needs a compile.
std::optional<LayoutCompileCheck> chooseArray(std::vector<AccessRecord *> &Recs,
                                              CompileVerdict Compile) {
  const bool Compiled = Compile == CompileVerdict::Allowed;
  for (AccessRecord *R : Recs) {
    R->Fix.reset();
    R->NoFixWhy.clear();
  }
  {
    const ArrayEditPlan &Plan = *Recs.front()->Layouts->Plan;
    bool Conflicted = false;
    std::string WhyNot;
    for (const AccessRecord *R : Recs) {
      Conflicted |= R->verdict() == Verdict::BankConflict;
      if (WhyNot.empty())
        WhyNot = R->Layouts->WhyNot;
    }
    if (!Conflicted)
      return std::nullopt;
    auto ForConflicted = [&](const std::string &Why) {
      for (AccessRecord *R : Recs)
        if (R->verdict() == Verdict::BankConflict)
          R->NoFixWhy = Why;
    };
    if (!WhyNot.empty()) {
      ForConflicted("no layout of '" + Plan.Name + "' is proposed: " + WhyNot);
      return std::nullopt;
    }
    // A launch where the array has no conflict was not re-costed: a layout
    // could make it dearer there.
    for (const AccessRecord *R : Recs)
      if (R->Layouts->NotSearched && WhyNot.empty())
        WhyNot = "it has no conflict in the launch with blockDim " + R->Launch.Block.str() +
                 " of '" + R->Kernel + "', where other layouts are not re-costed";
    if (!WhyNot.empty()) {
      ForConflicted("no layout of '" + Plan.Name + "' is proposed: " + WhyNot);
      return std::nullopt;
    }
    // The candidates of a launch that has them (all conflicted launches try
    // the same ones for the same shape).
    const AccessRecord *First = Recs.front();
    for (const AccessRecord *R : Recs)
      if (!R->Layouts->NotSearched) {
        First = R;
        break;
      }
    // The candidates every launch tried, by key, with each record's cost.
    struct Option {
      SharedLayout L;
      bool Valid = true;
      bool NeedsCompile = false;
      double Total = 0;
      std::vector<double> After; // per record
    };
    std::vector<Option> Options;
    std::map<std::string, size_t> Index;
    for (const SharedLayout &L : First->Layouts->Candidates) {
      Index[L.key()] = Options.size();
      Options.push_back({L, true, false, 0, std::vector<double>(Recs.size(), NAN)});
    }
    double Before = 0;
    for (size_t I = 0; I < Recs.size(); ++I) {
      const AccessRecord &R = *Recs[I];
      Before += R.Ans.cost() * weightOf(R);
      std::set<std::string> Seen;
      for (size_t C = 0; C < R.Layouts->Candidates.size(); ++C) {
        auto It = Index.find(R.Layouts->Candidates[C].key());
        if (It == Index.end())
          continue;
        Seen.insert(It->first);
        Option &O = Options[It->second];
        if (C < R.Layouts->NeedsCompile.size() && R.Layouts->NeedsCompile[C])
          O.NeedsCompile = true;
        const double A = C < R.LayoutCosts.size() ? R.LayoutCosts[C] : NAN;
        if (std::isnan(A) || Answer::exceeds(A, R.Ans.cost()))
          O.Valid = false;
        else {
          O.After[I] = A;
          O.Total += A * weightOf(R);
        }
      }
      for (Option &O : Options)
        if (!Seen.count(O.L.key()))
          O.Valid = false;
    }
    bool Wide = false;
    for (const AccessRecord *R : Recs)
      Wide |= int64_t(R->BytesPerLane) > Plan.Shape.ElemSize;
    struct Ranked {
      const Option *O;
      std::vector<SourceEdit> Edits;
      std::string Written, Why;
    };
    std::vector<Ranked> Good;
    // The best layout left out for want of a compile that confirms it.
    const Option *Unconfirmed = nullptr;
    for (const Option &O : Options) {
      if (!O.Valid || !Answer::exceeds(Before, O.Total))
        continue;
      if (O.NeedsCompile && !Compiled) {
        if (!Unconfirmed || O.Total < Unconfirmed->Total)
          Unconfirmed = &O;
        continue;
      }
      // Padding past the shared-memory limit is no fix.
      if (Plan.StaticSharedBytes + O.L.extraBytes(Plan.Shape) > StaticSharedLimit)
        continue;
      Ranked R{&O, {}, {}, {}};
      R.Edits = layoutEdits(Plan, O.L, R.Written, R.Why);
      Good.push_back(std::move(R));
    }
    // Why a layout that would do better is not offered.
    std::string UnconfirmedNote;
    if (Unconfirmed) {
      std::string Written, Why;
      layoutEdits(Plan, Unconfirmed->L, Written, Why);
      UnconfirmedNote =
          describe(Plan, Unconfirmed->L, Written) + " would give " +
          formatNumber(Unconfirmed->Total) + " wavefronts per warp if nvcc kept emitting the "
          "same shared-memory instructions for the edited code" +
          (Compile == CompileVerdict::Refused
               ? ", which it does not (compiled)"
               : "; not offered: no compile of the edited code confirms it (the compiler "
                 "witness compiles it where nvcc is found)");
    }
    if (Good.empty()) {
      ForConflicted("no padding or XOR swizzle of '" + Plan.Name + "' (" +
                    std::to_string(Options.size()) +
                    " layouts tried) makes its accesses cheaper without making one of them "
                    "dearer" + (UnconfirmedNote.empty() ? "" : "; " + UnconfirmedNote));
      return std::nullopt;
    }
    auto Better = [&](const Ranked &A, const Ranked &B) {
      if (!sameCost(A.O->Total, B.O->Total))
        return A.O->Total < B.O->Total;
      if (A.Edits.empty() != B.Edits.empty())
        return !A.Edits.empty();
      if (A.O->L.K != B.O->L.K)
        return (A.O->L.K == SharedLayout::Pad) != Wide;
      const int64_t MA = A.O->L.extraBytes(Plan.Shape), MB = B.O->L.extraBytes(Plan.Shape);
      if (MA != MB)
        return MA < MB;
      // The same wavefronts and memory: the smaller unit and shift.
      return A.O->L.key() < B.O->L.key();
    };
    size_t Best = 0;
    for (size_t I = 1; I < Good.size(); ++I)
      if (Better(Good[I], Good[Best]))
        Best = I;
    const Ranked &Chosen = Good[Best];
    // The other family's best, named when it is as good.
    std::string Alternative;
    {
      const Ranked *Other = nullptr;
      for (const Ranked &R : Good)
        if (R.O->L.K != Chosen.O->L.K && !R.O->NeedsCompile && (!Other || Better(R, *Other)))
          Other = &R;
      if (Other && sameCost(Other->O->Total, Chosen.O->Total)) {
        Alternative = describe(Plan, Other->O->L, Other->Written) + " gives the same";
        const int64_t Extra = Other->O->L.extraBytes(Plan.Shape);
        Alternative += Extra > 0 ? " with " + std::to_string(Extra) + " more bytes of shared memory"
                       : Extra < 0 ? " with " + std::to_string(-Extra) + " fewer bytes of shared memory"
                                   : " with no extra memory";
        if (Other->O->L.K == SharedLayout::Swizzle)
          Alternative += ", rewriting the subscripts of every access";
      }
    }
    // Per launch (kernel and block), the array's wavefronts per warp.
    std::map<std::string, std::pair<double, double>> PerLaunch;
    std::map<std::string, unsigned> AccessesPerLaunch;
    for (size_t I = 0; I < Recs.size(); ++I) {
      const std::string L = Recs[I]->Kernel + Recs[I]->Launch.Block.str();
      PerLaunch[L].first += Recs[I]->Ans.cost() * weightOf(*Recs[I]);
      PerLaunch[L].second += Chosen.O->After[I] * weightOf(*Recs[I]);
      ++AccessesPerLaunch[L];
    }
    const std::string Condition = blockList({Recs.begin(), Recs.end()});
    for (size_t I = 0; I < Recs.size(); ++I) {
      AccessRecord &R = *Recs[I];
      LayoutFix F;
      F.Layout = Chosen.O->L;
      F.What = describe(Plan, Chosen.O->L, Chosen.Written);
      F.Title = Chosen.O->L.K == SharedLayout::Pad ? "pad '" + Plan.Name + "' to " + Chosen.Written
                                                   : "swizzle '" + Plan.Name + "': " + Chosen.Written;
      F.Before = R.Ans.cost();
      F.After = Chosen.O->After[I];
      const std::string L = R.Kernel + R.Launch.Block.str();
      F.ArrayBefore = PerLaunch[L].first;
      F.ArrayAfter = PerLaunch[L].second;
      F.Accesses = AccessesPerLaunch[L];
      F.ExtraBytes = Chosen.O->L.extraBytes(Plan.Shape);
      F.Condition = Condition;
      F.Alternative = Alternative;
      if (!UnconfirmedNote.empty() && Unconfirmed->Total < Chosen.O->Total &&
          !sameCost(Unconfirmed->Total, Chosen.O->Total))
        F.Alternative += (F.Alternative.empty() ? "" : "; ") + UnconfirmedNote;
      F.Edits = Chosen.Edits;
      F.WhyNot = Chosen.Why;
      R.Fix = std::move(F);
    }
    if (!Chosen.O->NeedsCompile)
      return std::nullopt;
    LayoutCompileCheck Check;
    Check.ArrayKey = Plan.Key;
    Check.Edits = Chosen.Edits;
    std::set<std::string> Seen;
    for (const AccessRecord *R : Recs)
      if (Seen.insert(R->Pos.File + ":" + std::to_string(R->Pos.Line)).second)
        Check.Lines.push_back(R->Pos);
    return Check;
  }
}

} // namespace

void chooseLayoutFixes(std::vector<AccessRecord> &Records, const LayoutCompiler &Compile) {
  std::map<std::string, std::vector<AccessRecord *>> ByArray;
  for (AccessRecord &R : Records)
    if (R.Layouts && R.Layouts->Plan)
      ByArray[R.Layouts->Plan->Key].push_back(&R);
  std::vector<LayoutCompileCheck> Checks;
  for (auto &KV : ByArray)
    if (std::optional<LayoutCompileCheck> C = chooseArray(KV.second, CompileVerdict::Allowed))
      Checks.push_back(std::move(*C));
  if (Checks.empty())
    return;
  // A swizzle over merged accesses holds only if nvcc keeps them merged in
  // the edited code: one compile of all such edits, and the arrays it does
  // not confirm (or without a compiler, or a fix with no edit) choose
  // again among the others.
  std::vector<LayoutCompileCheck> Compiled;
  for (const LayoutCompileCheck &C : Checks)
    if (!C.Edits.empty())
      Compiled.push_back(C);
  std::vector<int> Kept;
  if (Compile && !Compiled.empty())
    Kept = Compile(Compiled);
  std::set<std::string> Confirmed, Refused;
  for (size_t I = 0; I < Compiled.size() && I < Kept.size(); ++I)
    if (Kept[I] == 1)
      Confirmed.insert(Compiled[I].ArrayKey);
    else if (Kept[I] == 0)
      Refused.insert(Compiled[I].ArrayKey);
  for (const LayoutCompileCheck &C : Checks) {
    std::vector<AccessRecord *> &Recs = ByArray[C.ArrayKey];
    if (!Confirmed.count(C.ArrayKey)) {
      chooseArray(Recs, Refused.count(C.ArrayKey) ? CompileVerdict::Refused
                                                  : CompileVerdict::NoCompiler);
      continue;
    }
    for (AccessRecord *R : Recs)
      if (R->Fix)
        R->Fix->Condition += "; nvcc, compiling the edited code, emits the same shared-memory "
                             "instructions on the array's lines";
  }
}

} // namespace coalesce
