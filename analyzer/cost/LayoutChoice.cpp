//===- LayoutChoice.cpp - One layout fix per shared array -----------------===//

#include "cost/LayoutChoice.h"
#include "report/Numbers.h"

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

/// `c ^ ((r & 7) << 2)` for one use.
std::string swizzledColumn(const ArrayEditPlan::Use &U, const ArrayShape &S,
                           const SharedLayout &L) {
  const std::string Col = U.ColSimple ? U.ColText : "(" + U.ColText + ")";
  const std::string Row = U.RowSimple ? U.RowText : "(" + U.RowText + ")";
  const std::string Mask = std::to_string((int64_t(1) << L.Bits) - 1);
  std::string Bits = L.Shift ? "((" + Row + " >> " + std::to_string(L.Shift) + ") & " + Mask + ")"
                             : "(" + Row + " & " + Mask + ")";
  const unsigned Up = floorLog2(L.UnitBytes / S.ElemSize);
  if (Up)
    Bits = "(" + Bits + " << " + std::to_string(Up) + ")";
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
                    "' by row" +
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
  return Out + "[r][" + swizzledColumn(U, P.Shape, L) + "]";
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
  std::set<std::pair<unsigned, unsigned>> Done;
  for (const ArrayEditPlan::Use &U : P.Uses)
    if (Done.insert({U.ColPos.Line, U.ColPos.Column}).second)
      Out.push_back({U.ColPos, U.ColLength, swizzledColumn(U, P.Shape, L)});
  if (Out.empty())
    Why = "no use of '" + P.Name + "' to rewrite";
  return Out;
}

void chooseLayoutFixes(std::vector<AccessRecord> &Records) {
  std::map<std::string, std::vector<AccessRecord *>> ByArray;
  for (AccessRecord &R : Records)
    if (R.Layouts && R.Layouts->Plan)
      ByArray[R.Layouts->Plan->Key].push_back(&R);
  for (auto &KV : ByArray) {
    std::vector<AccessRecord *> &Recs = KV.second;
    const ArrayEditPlan &Plan = *Recs.front()->Layouts->Plan;
    bool Conflicted = false;
    std::string WhyNot;
    for (const AccessRecord *R : Recs) {
      Conflicted |= R->verdict() == Verdict::BankConflict;
      if (WhyNot.empty())
        WhyNot = R->Layouts->WhyNot;
    }
    if (!Conflicted)
      continue;
    auto ForConflicted = [&](const std::string &Why) {
      for (AccessRecord *R : Recs)
        if (R->verdict() == Verdict::BankConflict)
          R->NoFixWhy = Why;
    };
    if (!WhyNot.empty()) {
      ForConflicted("no layout of '" + Plan.Name + "' is proposed: " + WhyNot);
      continue;
    }
    // A launch where the array has no conflict was not re-costed: a layout
    // could make it dearer there.
    for (const AccessRecord *R : Recs)
      if (R->Layouts->NotSearched && WhyNot.empty())
        WhyNot = "it has no conflict in the launch with blockDim " + R->Launch.Block.str() +
                 " of '" + R->Kernel + "', where other layouts are not re-costed";
    if (!WhyNot.empty()) {
      ForConflicted("no layout of '" + Plan.Name + "' is proposed: " + WhyNot);
      continue;
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
      double Total = 0;
      std::vector<double> After; // per record
    };
    std::vector<Option> Options;
    std::map<std::string, size_t> Index;
    for (const SharedLayout &L : First->Layouts->Candidates) {
      Index[L.key()] = Options.size();
      Options.push_back({L, true, 0, std::vector<double>(Recs.size(), NAN)});
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
    for (const Option &O : Options) {
      if (!O.Valid || !Answer::exceeds(Before, O.Total))
        continue;
      // Padding past the shared-memory limit is no fix.
      if (Plan.StaticSharedBytes + O.L.extraBytes(Plan.Shape) > StaticSharedLimit)
        continue;
      Ranked R{&O, {}, {}, {}};
      R.Edits = layoutEdits(Plan, O.L, R.Written, R.Why);
      Good.push_back(std::move(R));
    }
    if (Good.empty()) {
      ForConflicted("no padding or XOR swizzle of '" + Plan.Name + "' (" +
                    std::to_string(Options.size()) +
                    " layouts tried) makes its accesses cheaper without making one of them "
                    "dearer");
      continue;
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
        if (R.O->L.K != Chosen.O->L.K && (!Other || Better(R, *Other)))
          Other = &R;
      if (Other && sameCost(Other->O->Total, Chosen.O->Total)) {
        Alternative = describe(Plan, Other->O->L, Other->Written) + " gives the same";
        const int64_t Extra = Other->O->L.extraBytes(Plan.Shape);
        Alternative += Extra ? " with " + std::to_string(Extra) + " more bytes of shared memory"
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
      F.Edits = Chosen.Edits;
      F.WhyNot = Chosen.Why;
      R.Fix = std::move(F);
    }
  }
}

} // namespace coalesce
