//===- State.cpp - Frames, symbols, regions and the kernel entry ----------===//
//
// The interpreter's state for one warp: which lanes exist and run, the
// frames of the functions being executed (a deque, so references to outer
// frames survive calls), and the memory regions accesses are made to. A
// kernel parameter that is a pointer starts a region of its own (assumed to
// be the start of a cudaMalloc allocation); an integer parameter is a
// warp-uniform symbol unless the launch passes a known value. threadIdx is
// per lane once the block shape is known; blockIdx and the loop counters are
// warp-uniform symbols.
//===----------------------------------------------------------------------===//

#include "interp/WarpInterp.h"

#include "ast/AstUtil.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/Hashing.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace coalesce {

bool Value::sameAs(const Value &O) const {
  if (K != O.K)
    return false;
  switch (K) {
  case Int:
    return P == O.P;
  case Ptr:
    return Region == O.Region && P == O.P;
  case Unknown:
    return Why == O.Why;
  case Opaque:
    return UniformId == O.UniformId && !Code == !O.Code && (!Code || *Code == *O.Code);
  }
  return false;
}

AccessEvent AccessEvent::secondSide() const {
  AccessEvent Other = *this;
  Other.SecondSide.reset();
  if (!SecondSide)
    return Other;
  const AccessSide &S = *SecondSide;
  Other.Op = S.Op;
  Other.Space = S.Space;
  Other.Region = S.Region;
  Other.Offset = S.Offset;
  Other.Width = S.Width;
  Other.Subscripts = S.Subscripts;
  Other.ArrayDecl = S.ArrayDecl;
  if (S.Site) {
    Other.Site = S.Site;
    Other.Because = S.Because;
  }
  return Other;
}

RegionId KernelRun::addRegion(MemRegion Rg) {
  Regions.push_back(std::move(Rg));
  return static_cast<RegionId>(Regions.size() - 1);
}

std::string BlockBox::str() const {
  std::string S;
  const char *Axis[] = {"x", "y", "z"};
  for (int A = 0; A < 3; ++A) {
    if (Lo[A] == 0 && Hi[A] == 1)
      continue;
    if (!S.empty())
      S += ", ";
    S += std::string("blockIdx.") + Axis[A] +
         (Hi[A] - Lo[A] == 1 ? " = " + std::to_string(Lo[A])
                             : " in [" + std::to_string(Lo[A]) + ", " + std::to_string(Hi[A]) + ")");
  }
  return S.empty() ? "block 0" : S;
}

RegionId KernelRun::regionFor(const void *Key, MemRegion Rg) {
  auto It = RegionByKey.find(Key);
  if (It != RegionByKey.end())
    return It->second;
  RegionId Id = addRegion(std::move(Rg));
  RegionByKey.emplace(Key, Id);
  return Id;
}

std::optional<MemorySpace> MemRegion::space() const {
  switch (K) {
  case Global: return MemorySpace::Global;
  case Shared: return MemorySpace::Shared;
  case Constant: return MemorySpace::Constant;
  case Local:
    // A per-thread array (local memory when the compiler does not keep it in
    // registers); other local objects whose address is taken are registers
    // or stack slots the analysis does not cost.
    if (auto *VD = llvm::dyn_cast_or_null<clang::VarDecl>(Decl);
        VD && VD->getType()->isArrayType())
      return MemorySpace::Local;
    break;
  case Param: break;
  }
  return std::nullopt;
}

namespace interp {

WarpInterp::WarpInterp(KernelRun &Run, unsigned Warp)
    : R(Run), Ctx(Run.Ctx), Warp(Warp),
      ShapeKnown(Run.Launch.Config.BlockKnown) {
  const LaunchConfig &C = R.Launch.Config;
  if (ShapeKnown) {
    Threads = threadsOfWarp(C.Block, Warp, R.WarpsYFirst);
    Exists = Threads.Exists;
  } else if (C.partlyKnown() &&
             (Partial = partialWarps(C.KnownDims[0], C.KnownDims[1], C.KnownDims[2]))) {
    Threads = threadsOfWarp(Partial->Sub, Warp);
    Exists = Threads.Exists;
  } else {
    Exists = AllLanes;
    if (C.partlyKnown() && C.KnownDims[0]) {
      // x is known and is not a multiple of 32 (else Partial): the usual
      // assumption, blockDim.x a multiple of 32, is false, and a warp
      // takes threads from the unknown dimension.
      std::string Unknown = !C.KnownDims[1] ? "y" : "z";
      ShapeWhy = makeReason(ReasonKind::WarpThreadsUnknown, {C.partialStr(), Unknown});
      ShapeWhy.Settle = {C.BlockOption};
    }
  }
}

LValue WarpInterp::memAt(const Value &P) {
  LValue LV;
  if (P.K == Value::Ptr) {
    LV.K = LValue::Mem;
    LV.Ptr = P;
    return LV;
  }
  LV.K = LValue::Unknown;
  LV.Why = P.K == Value::Unknown && !P.Why.empty() ? P.Why
                                                    : makeReason(ReasonKind::PointerUnknown);
  if (P.K == Value::Unknown)
    LV.UnknownRegion = P.Where;
  return LV;
}

SymbolId WarpInterp::sym(const std::string &Key, const std::string &Name, SymbolKind K,
             int64_t Range, std::string Spelling, int64_t Start) {
  SymbolInfo Info;
  Info.Name = Name;
  Info.Spelling = std::move(Spelling);
  Info.Kind = K;
  Info.UniformRange = Range;
  Info.RangeStart = Start;
  return R.Syms.intern(Key, Info);
}

void WarpInterp::emit(AccessEvent E) {
  if (BufferDepth)
    Buffered.push_back(std::move(E));
  else
    R.Sink->take(std::move(E));
}

void WarpInterp::flushBuffered() {
  if (BufferDepth)
    return;
  for (AccessEvent &E : Buffered)
    R.Sink->take(std::move(E));
  Buffered.clear();
}

void WarpInterp::dropBuffered(size_t Mark, const std::vector<bool> &Drop) {
  size_t Out = Mark;
  for (size_t I = Mark; I < Buffered.size(); ++I)
    if (!Drop[I]) {
      if (Out != I)
        Buffered[Out] = std::move(Buffered[I]);
      ++Out;
    }
  Buffered.resize(Out);
}

std::string WarpInterp::text(const Expr *E) {
  auto It = R.Texts.find(E);
  if (It == R.Texts.end())
    It = R.Texts.try_emplace(E, exprText(Ctx, E)).first;
  return It->second;
}

Frame *WarpInterp::frameOf(const VarDecl *VD, unsigned *Idx) {
  for (size_t I = Frames.size(); I-- > 0;)
    if (Frames[I].Vars.count(VD) || Frames[I].Refs.count(VD)) {
      if (Idx)
        *Idx = static_cast<unsigned>(I);
      return &Frames[I];
    }
  return nullptr;
}

Value WarpInterp::merge(LaneMask M, const Value &New, const Value &Old) const {
  LaneMask Live = Exists & ~frameReturnedAll();
  if ((M & Live) == Live || Old.K == Value::Unknown)
    return New;
  if (New.K == Value::Int && Old.K == Value::Int)
    return Value::integer(New.P.select(M, Old.P));
  if (New.K == Value::Ptr && Old.K == Value::Ptr && New.Region == Old.Region) {
    Value V = New;
    V.P = New.P.select(M, Old.P);
    return V;
  }
  if (New.K == Value::Opaque && Old.K == Value::Opaque && (New.Fields || Old.Fields)) {
    // Struct values: field by field, the fields both sides know.
    if (!New.Fields || !Old.Fields)
      return Value::opaque();
    FieldValues Out;
    for (const auto &[Path, V] : *New.Fields) {
      auto It = Old.Fields->find(Path);
      if (It != Old.Fields->end())
        Out.emplace(Path, merge(M, V, It->second));
    }
    return Value::aggregate(std::move(Out));
  }
  if (New.sameAs(Old))
    return New;
  if (New.K == Value::Opaque && Old.K == Value::Opaque)
    return Value::opaque(); // lanes take different values
  if (New.K == Value::Unknown)
    return New;
  return Value::unknown(ReasonKind::LaneKinds);
}

Value WarpInterp::fieldsOf(const Frame &F, const VarDecl *VD, const std::string &Prefix) const {
  FieldValues Out;
  for (auto It = F.Fields.lower_bound({VD, Prefix}); It != F.Fields.end() && It->first.first == VD;
       ++It) {
    const std::string &Path = It->first.second;
    if (Path.compare(0, Prefix.size(), Prefix) != 0)
      break;
    if (Path.size() > Prefix.size() && (Path[Prefix.size()] == '.' || Path[Prefix.size()] == '['))
      Out.emplace(Path.substr(Prefix.size()), It->second);
  }
  return Value::aggregate(std::move(Out));
}

void WarpInterp::setFields(Frame &F, const VarDecl *VD, const std::string &Prefix, const Value &V) {
  for (auto It = F.Fields.lower_bound({VD, Prefix}); It != F.Fields.end() && It->first.first == VD;) {
    const std::string &Path = It->first.second;
    if (Path.compare(0, Prefix.size(), Prefix) != 0)
      break;
    if (Path.size() > Prefix.size() && (Path[Prefix.size()] == '.' || Path[Prefix.size()] == '['))
      It = F.Fields.erase(It);
    else
      ++It;
  }
  if (V.Fields)
    for (const auto &[Path, FV] : *V.Fields)
      F.Fields[{VD, Prefix + Path}] = FV;
}

namespace {

/// The field of RD named Name, looked up as `this->Name` finds it: its own
/// fields, those of anonymous members, those of its bases; with its byte
/// offset in RD.
std::optional<std::pair<int64_t, QualType>> namedField(const ASTContext &Ctx,
                                                       const RecordDecl *RD,
                                                       llvm::StringRef Name) {
  if (!RD || !(RD = RD->getDefinition()) || RD->isInvalidDecl())
    return std::nullopt;
  const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
  for (const FieldDecl *FD : RD->fields()) {
    const int64_t Off = static_cast<int64_t>(L.getFieldOffset(FD->getFieldIndex()) / 8);
    if (FD->getIdentifier() && FD->getName() == Name)
      return FD->isBitField() ? std::nullopt
                              : std::optional(std::make_pair(Off, FD->getType()));
    if (!FD->getIdentifier() && FD->getType()->isRecordType())
      if (auto In = namedField(Ctx, FD->getType()->getAsRecordDecl(), Name))
        return std::make_pair(Off + In->first, In->second);
  }
  if (auto *CXX = dyn_cast<CXXRecordDecl>(RD))
    for (const CXXBaseSpecifier &B : CXX->bases()) {
      const CXXRecordDecl *BD = B.getType()->getAsCXXRecordDecl();
      if (!BD || B.isVirtual())
        continue;
      if (auto In = namedField(Ctx, BD, Name))
        return std::make_pair(L.getBaseClassOffset(BD).getQuantity() + In->first, In->second);
    }
  return std::nullopt;
}

int64_t sizeOf(const ASTContext &Ctx, QualType T) {
  return T->isIncompleteType() || T->isDependentType()
             ? 0
             : Ctx.getTypeSizeInChars(T).getQuantity();
}

/// Integers of one size, or two pointers: a value read as the other.
bool sameRegister(const ASTContext &Ctx, QualType A, QualType B) {
  if (Ctx.hasSameUnqualifiedType(A, B))
    return true;
  return ((isIntegral(A) && isIntegral(B)) || (A->isPointerType() && B->isPointerType())) &&
         sizeOf(Ctx, A) == sizeOf(Ctx, B);
}

} // namespace

bool WarpInterp::hasUnion(QualType T) {
  T = T.getCanonicalType();
  while (const ConstantArrayType *AT = Ctx.getAsConstantArrayType(T))
    T = AT->getElementType().getCanonicalType();
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD || !(RD = RD->getDefinition()))
    return false;
  if (auto It = UnionInside.find(RD); It != UnionInside.end())
    return It->second;
  bool U = RD->isUnion();
  UnionInside[RD] = U; // a record cannot contain itself
  for (const FieldDecl *FD : RD->fields())
    U = U || hasUnion(FD->getType());
  if (auto *CXX = dyn_cast<CXXRecordDecl>(RD))
    for (const CXXBaseSpecifier &B : CXX->bases())
      U = U || hasUnion(B.getType());
  UnionInside[RD] = U;
  return U;
}

void WarpInterp::forgetOverlappingPart(Frame &F, const VarDecl *VD, const std::string &Path,
                                       QualType T) {
  const QualType Whole = VD->getType().getNonReferenceType();
  if (!hasUnion(Whole))
    return; // parts with different paths do not overlap
  if (auto Part = partAt(Whole, Path))
    forgetOverlapping(F, VD, Part->first,
                      T->isIncompleteType() ? -1 : Ctx.getTypeSizeInChars(T).getQuantity());
  else
    forgetOverlapping(F, VD, 0, -1);
}

Value WarpInterp::zeroValue(QualType T) const {
  FieldValues Out;
  std::function<void(QualType, const std::string &, unsigned)> Walk =
      [&](QualType Ty, const std::string &Path, unsigned Depth) {
        Ty = Ty.getCanonicalType();
        if (Depth > 8 || Out.size() > MaxTrackedElements)
          return;
        if (isIntegral(Ty)) {
          Out.emplace(Path, Value::constant(0));
          return;
        }
        if (const ConstantArrayType *AT = Ctx.getAsConstantArrayType(Ty)) {
          const uint64_t N = std::min<uint64_t>(AT->getZExtSize(), MaxTrackedElements);
          for (uint64_t I = 0; I < N; ++I)
            Walk(AT->getElementType(), Path + "[" + std::to_string(I) + "]", Depth + 1);
          return;
        }
        const RecordDecl *RD = Ty->getAsRecordDecl();
        if (!RD || !(RD = RD->getDefinition()) || RD->isUnion())
          return;
        if (auto *CXX = dyn_cast<CXXRecordDecl>(RD))
          for (const CXXBaseSpecifier &B : CXX->bases())
            if (!B.isVirtual())
              Walk(B.getType(), Path, Depth + 1);
        for (const FieldDecl *FD : RD->fields())
          if (FD->getIdentifier() && !FD->isBitField())
            Walk(FD->getType(), Path + "." + FD->getName().str(), Depth + 1);
      };
  Walk(T, "", 0);
  if (auto It = Out.find(""); It != Out.end())
    return It->second;
  return Value::aggregate(std::move(Out));
}

std::optional<std::pair<int64_t, QualType>> WarpInterp::partAt(QualType T,
                                                                 llvm::StringRef Path) const {
  int64_t Off = 0;
  while (!Path.empty()) {
    T = T.getCanonicalType();
    if (Path.front() == '[') {
      const size_t Close = Path.find(']');
      const ConstantArrayType *AT = Ctx.getAsConstantArrayType(T);
      int64_t K = 0;
      if (!AT || Close == llvm::StringRef::npos || Path.substr(1, Close - 1).getAsInteger(10, K))
        return std::nullopt;
      T = AT->getElementType();
      Off += K * sizeOf(Ctx, T);
      Path = Path.substr(Close + 1);
      continue;
    }
    if (Path.front() != '.')
      return std::nullopt;
    const size_t End = Path.find_first_of(".[", 1);
    auto F = namedField(Ctx, T->getAsRecordDecl(), Path.substr(1, End - 1));
    if (!F)
      return std::nullopt;
    Off += F->first;
    T = F->second;
    Path = End == llvm::StringRef::npos ? llvm::StringRef() : Path.substr(End);
  }
  return std::make_pair(Off, T);
}

std::optional<std::string> WarpInterp::pathAt(QualType T, int64_t Off, QualType Want) const {
  T = T.getCanonicalType();
  const int64_t Size = sizeOf(Ctx, T);
  if (Off < 0 || Off >= std::max<int64_t>(Size, 1))
    return std::nullopt;
  if (Off == 0 && sameRegister(Ctx, T, Want))
    return std::string();
  if (const ConstantArrayType *AT = Ctx.getAsConstantArrayType(T)) {
    const int64_t ES = sizeOf(Ctx, AT->getElementType());
    if (ES <= 0)
      return std::nullopt;
    if (auto Sub = pathAt(AT->getElementType(), Off % ES, Want))
      return "[" + std::to_string(Off / ES) + "]" + *Sub;
    return std::nullopt;
  }
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD || !(RD = RD->getDefinition()) || RD->isInvalidDecl())
    return std::nullopt;
  const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
  // Bases first: their fields are named as the object's own.
  if (auto *CXX = dyn_cast<CXXRecordDecl>(RD))
    for (const CXXBaseSpecifier &B : CXX->bases()) {
      const CXXRecordDecl *BD = B.getType()->getAsCXXRecordDecl();
      if (!BD || B.isVirtual())
        continue;
      const int64_t BO = L.getBaseClassOffset(BD).getQuantity();
      if (auto Sub = pathAt(B.getType(), Off - BO, Want))
        return Sub;
    }
  for (const FieldDecl *FD : RD->fields()) {
    if (FD->isBitField())
      continue;
    const int64_t FO = static_cast<int64_t>(L.getFieldOffset(FD->getFieldIndex()) / 8);
    if (Off < FO || Off >= FO + std::max<int64_t>(sizeOf(Ctx, FD->getType()), 1))
      continue;
    // A union's members overlap: the one of the type read is the one.
    if (auto Sub = pathAt(FD->getType(), Off - FO, Want))
      return FD->getIdentifier() ? "." + FD->getName().str() + *Sub : *Sub;
  }
  return std::nullopt;
}

std::optional<WarpInterp::LocalPart> WarpInterp::localPart(const LValue &LV, QualType T) {
  if (LV.K != LValue::Mem || LV.Ptr.K != Value::Ptr)
    return std::nullopt;
  const MemRegion &M = R.Regions[LV.Ptr.Region];
  auto *VD = dyn_cast_or_null<VarDecl>(M.Decl);
  unsigned Idx;
  if (M.K != MemRegion::Local || !VD || !frameOf(VD, &Idx))
    return std::nullopt;
  LocalPart P{VD, Idx, std::nullopt};
  if (!LV.Ptr.P.isConcrete(Active) || !LV.Ptr.P.isUniform(Active))
    return P; // lanes read different elements: none is known
  const unsigned F = firstLane(Active);
  const int64_t Off = LV.Ptr.P.laneConstants()[F == WarpSize ? 0 : F];
  P.Path = pathAt(VD->getType().getNonReferenceType(), Off, T.getCanonicalType());
  return P;
}

void WarpInterp::forgetOverlapping(Frame &F, const VarDecl *VD, int64_t Off, int64_t Size) {
  for (auto It = F.Fields.lower_bound({VD, ""}); It != F.Fields.end() && It->first.first == VD;) {
    auto Part = partAt(VD->getType().getNonReferenceType(), It->first.second);
    const bool Overlaps = Size < 0 || !Part ||
                          (Part->first < Off + Size &&
                           Off < Part->first + std::max<int64_t>(sizeOf(Ctx, Part->second), 1));
    It = Overlaps ? F.Fields.erase(It) : std::next(It);
  }
}

Value WarpInterp::valueOfConstant(const APValue &AV, QualType T) const {
  FieldValues Out;
  std::function<void(const APValue &, QualType, const std::string &)> Walk =
      [&](const APValue &A, QualType Ty, const std::string &Path) {
        if (A.isInt()) {
          if (!Path.empty())
            Out.emplace(Path, Value::constant(A.getInt().getExtValue()));
          return;
        }
        if (A.isArray()) {
          const ConstantArrayType *AT = Ctx.getAsConstantArrayType(Ty);
          if (!AT)
            return;
          const unsigned N = std::min<unsigned>(A.getArraySize(), MaxTrackedElements);
          for (unsigned I = 0; I < N; ++I)
            Walk(I < A.getArrayInitializedElts() ? A.getArrayInitializedElt(I) : A.getArrayFiller(),
                 AT->getElementType(), Path + "[" + std::to_string(I) + "]");
          return;
        }
        const auto *RD = Ty->getAsRecordDecl();
        if (!A.isStruct() || !RD || RD->isUnion())
          return;
        // Bases first: their fields are named as the object's own.
        if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD)) {
          unsigned B = 0;
          for (const CXXBaseSpecifier &Base : CXX->bases()) {
            if (B >= A.getStructNumBases())
              break;
            Walk(A.getStructBase(B++), Base.getType(), Path);
          }
        }
        unsigned I = 0;
        for (const FieldDecl *FD : RD->fields()) {
          if (I >= A.getStructNumFields())
            break;
          if (FD->getIdentifier())
            Walk(A.getStructField(I), FD->getType(), Path + "." + FD->getName().str());
          ++I;
        }
      };
  Walk(AV, T, "");
  return Value::aggregate(std::move(Out));
}

Value WarpInterp::structValue(const Expr *E) {
  const Expr *S = skipToValue(E);
  if (isCompileTimeConstant(Ctx, S)) {
    Expr::EvalResult Res;
    if (S->EvaluateAsRValue(Res, Ctx) && (Res.Val.isStruct() || Res.Val.isArray()))
      return valueOfConstant(Res.Val, S->getType());
    return Value::opaque();
  }
  if (!S->isGLValue())
    return eval(S);
  LValue LV = evalLValue(S);
  if (LV.K == LValue::Var || LV.K == LValue::ParamField)
    reached(S); // a register or a kernel parameter
  if (LV.K == LValue::ParamField)
    return paramAggregate(LV.Param, LV.ParamPath, S->getType());
  return recordAt(LV, S->getType(), S);
}

Value WarpInterp::recordAt(const LValue &LV, QualType T, const Expr *Site) {
  if (LV.K == LValue::Var)
    return fieldsOf(Frames[std::min<size_t>(LV.FrameIdx, Frames.size() - 1)], LV.VarD,
                    LV.FieldPath);
  if (LV.K != LValue::Mem && LV.K != LValue::Unknown)
    return Value::opaque();
  access(AccessOp::Load, LV, T, Site);
  // A local object reached through a pointer (`this` of a method called on
  // it, a reference a method returned): the fields the walk knows of it,
  // as a load of one of its scalars gives (Memory.cpp, load()).
  if (std::optional<LocalPart> P = localPart(LV, T); P && P->Path)
    return fieldsOf(Frames[P->FrameIdx], P->VD, *P->Path);
  return Value::opaque();
}

LaneMask WarpInterp::frameReturnedAll() const {
  LaneMask M = 0;
  for (const Frame &F : Frames)
    M |= F.Returned;
  return M;
}

void WarpInterp::assignVar(const VarDecl *VD, const Value &V, unsigned FrameIdx) {
  Frame &F = Frames[FrameIdx];
  auto It = F.Vars.find(VD);
  if (It == F.Vars.end()) {
    F.Vars[VD] = V;
    return;
  }
  It->second = merge(Active, V, It->second);
}

std::optional<Value> WarpInterp::builtinVar(const PseudoObjectExpr *POE) {
  const Expr *Syn = POE->getSyntacticForm()->IgnoreParens();
  auto *MS = dyn_cast<MSPropertyRefExpr>(Syn);
  if (!MS)
    return std::nullopt;
  const Expr *Base = MS->getBaseExpr()->IgnoreParenImpCasts();
  if (auto *OVE = dyn_cast<OpaqueValueExpr>(Base))
    Base = OVE->getSourceExpr()->IgnoreParenImpCasts();
  auto *DR = dyn_cast<DeclRefExpr>(Base);
  if (!DR)
    return std::nullopt;
  std::string Var = DR->getDecl()->getName().str();
  std::string Prop = MS->getPropertyDecl()->getName().str();
  int Axis = Prop == "x" ? 0 : Prop == "y" ? 1 : Prop == "z" ? 2 : -1;
  if (Axis < 0)
    return std::nullopt;
  return builtinIndex(Var, Axis);
}

std::optional<Value> WarpInterp::builtinIndex(const std::string &Var, int Axis) {
  const std::string Prop = Axis == 0 ? "x" : Axis == 1 ? "y" : "z";
  const Dim3 &B = R.Launch.Config.Block;
  const std::string Name = Var + "." + Prop;
  if (Var == "threadIdx") {
    if (ShapeKnown && R.SymbolicWarps && Axis < 2) {
      // Warps along x (32 * w + lane) or, in a block 32 threads wide,
      // along y (threadIdx.y = w, threadIdx.x = lane).
      const bool AlongY = R.Launch.Config.Block.X == 32;
      if (Axis == 1 && !AlongY)
        return Value::constant(0);
      if (Axis == 0 && AlongY)
        return Value::integer(Poly::lanes(laneIota()));
      const auto [Lo, Hi] = *R.SymbolicWarps;
      const SymbolId S = sym("warp@" + std::to_string(Lo) + ":" + std::to_string(Hi),
                             AlongY ? "threadIdx.y" : "threadIdx.x/32", SymbolKind::ThreadBase,
                             Hi - Lo, "", Lo);
      R.BlockAxis[S] = KernelRun::WarpAxis;
      R.WarpSymbol = S;
      return Value::integer(AlongY ? Poly::symbol(S)
                                   : Poly::symbol(S, 32) + Poly::lanes(laneIota()));
    }
    if (ShapeKnown || (Partial && Axis < static_cast<int>(Partial->Axes)))
      return Value::integer(
          Poly::lanes(Axis == 0 ? Threads.Tx : Axis == 1 ? Threads.Ty : Threads.Tz));
    if (Partial)
      return Value::integer(Poly::symbol(sym(Name, Name, SymbolKind::ThreadBase)));
    if (Axis == 0)
      return Value::integer(
          Poly::symbol(sym("tx32", "threadIdx.x/32", SymbolKind::ThreadBase), 32) +
          Poly::lanes(laneIota()));
    return Value::integer(Poly::symbol(sym(Name, Name, SymbolKind::ThreadBase)));
  }
  if (Var == "blockDim") {
    if (ShapeKnown)
      return Value::constant(Axis == 0 ? B.X : Axis == 1 ? B.Y : B.Z);
    if (R.Launch.Config.KnownDims[Axis] && (Partial || !ShapeWhy.empty() || Axis > 0))
      return Value::constant(R.Launch.Config.KnownDims[Axis]);
    if (Partial)
      return Value::integer(Poly::symbol(sym(Name, Name, SymbolKind::BlockDim)));
    if (Axis == 0)
      return Value::integer(Poly::symbol(
          sym("bdx32", "blockDim.x/32", SymbolKind::BlockDim), 32));
    return Value::integer(Poly::symbol(sym(Name, Name, SymbolKind::BlockDim)));
  }
  const std::optional<Dim3> &G = R.Launch.Config.Grid;
  if (Var == "gridDim") {
    if (G)
      return Value::constant(Axis == 0 ? G->X : Axis == 1 ? G->Y : G->Z);
    return Value::integer(Poly::symbol(sym(Name, Name, SymbolKind::GridDim)));
  }
  if (Var == "blockIdx") {
    if (R.Blocks) {
      // The blocks this walk stands for (a part of a known grid).
      const int64_t Lo = R.Blocks->Lo[Axis], Hi = R.Blocks->Hi[Axis];
      if (Hi - Lo == 1)
        return Value::constant(Lo);
      const SymbolId S = sym(Name + "@" + std::to_string(Lo) + ":" + std::to_string(Hi), Name,
                             SymbolKind::BlockIdx, Hi - Lo, "", Lo);
      R.BlockAxis[S] = Axis;
      return Value::integer(Poly::symbol(S));
    }
    int64_t Range = G ? (Axis == 0 ? G->X : Axis == 1 ? G->Y : G->Z) : 0;
    if (Range == 1)
      return Value::constant(0);
    return Value::integer(
        Poly::symbol(sym(Name, Name, SymbolKind::BlockIdx, Range)));
  }
  return std::nullopt;
}

RegionId WarpInterp::regionForVar(const VarDecl *VD) {
  MemRegion Rg;
  Rg.Decl = VD;
  Rg.Name = VD->getName().str();
  Rg.Align = std::max<int64_t>(1, Ctx.getDeclAlign(VD).getQuantity());
  if (VD->hasAttr<CUDASharedAttr>()) {
    Rg.K = MemRegion::Shared;
    Rg.Dynamic = VD->hasExternalStorage();
    Rg.Align = std::max<int64_t>(Rg.Align, 16);
    Rg.AlignNote = makeAssumption(AssumptionKind::SharedAlignment);
  } else if (isConstantMemoryVar(VD)) {
    Rg.K = MemRegion::Constant;
  } else if (VD->hasGlobalStorage() && VD->hasAttr<CUDADeviceAttr>()) {
    Rg.K = MemRegion::Global;
    Rg.AlignNote = makeAssumption(Rg.Align >= 32 ? AssumptionKind::DeviceVariableAligned
                                                 : AssumptionKind::DeviceVariableAlignment,
                                  {Rg.Name, std::to_string(Rg.Align)});
  } else {
    Rg.K = MemRegion::Local;
  }
  return R.regionFor(VD, Rg);
}

RegionId WarpInterp::paramRegion(const ParmVarDecl *PD, const std::string &Path) {
  MemRegion Rg;
  Rg.K = MemRegion::Global;
  Rg.Decl = PD;
  Rg.Name = PD->getName().str() + Path;
  Rg.Align = 256;
  auto Off = R.Launch.PtrOffsets.find(PD);
  if (Path.empty() && Off != R.Launch.PtrOffsets.end() && Off->second != 0) {
    Rg.BaseOffset = Poly::constant(Off->second);
    Rg.AlignNote = makeAssumption(AssumptionKind::AllocationOffset,
                                  {Rg.Name, std::to_string(Off->second)});
  } else {
    Rg.AlignNote = makeAssumption(AssumptionKind::AllocationStart, {Rg.Name});
  }
  std::string Key = "param:" + std::to_string(reinterpret_cast<uintptr_t>(PD)) + Path;
  return regionKeyed(Key, Rg);
}

RegionId WarpInterp::regionKeyed(const std::string &Key, MemRegion Rg) {
  // Regions keyed by strings are shared across warps through RegionByKey
  // with an interned symbol id as the key.
  SymbolInfo Info;
  Info.Name = Key;
  Info.Kind = SymbolKind::Opaque;
  SymbolId S = R.Syms.intern("region:" + Key, std::move(Info));
  return R.regionFor(reinterpret_cast<const void *>(uintptr_t(S) + 1), Rg);
}

Value WarpInterp::paramValue(const ParmVarDecl *PD) {
  QualType T = PD->getType().getCanonicalType();
  if (T->isPointerType())
    return Value::pointer(paramRegion(PD, ""), Poly());
  if (isIntegral(T)) {
    auto It = R.Launch.IntArgs.find(PD);
    if (It != R.Launch.IntArgs.end())
      return Value::constant(It->second);
    return unknownParam(PD, "");
  }
  if (T->isScalarType())
    return Value::uniformOpaque(llvm::hash_combine(std::string("param"), PD->getName(), ""));
  return Value::opaque();
}

Value WarpInterp::unknownParam(const ParmVarDecl *PD, const std::string &Path) {
  const std::string Name = PD->getName().str() + Path;
  Reason Why;
  KnownOf K = factsAbout(R.Launch.Stated, PD->getName(), Path, Why);
  if (!Why.empty())
    return Value::unknown(std::move(Why));
  R.StatedUsed.insert(K.Given.begin(), K.Given.end());
  if (K.Value)
    return Value::constant(*K.Value);
  SymbolInfo Info;
  Info.Kind = SymbolKind::Param;
  Info.Name = Name;
  if (K.any()) {
    // Name = Step * q + Offset with q >= Min: the symbol is q.
    Info.Source = Name;
    Info.Step = K.Modulus;
    Info.Offset = K.Residue;
    if (K.Modulus > 1)
      Info.Name = K.Residue ? "(" + Name + " - " + std::to_string(K.Residue) + ")/" +
                                  std::to_string(K.Modulus)
                            : Name + "/" + std::to_string(K.Modulus);
    if (K.Min)
      Info.Min = std::max<int64_t>(0, (*K.Min - K.Residue + K.Modulus - 1) / K.Modulus);
    if (K.Min && *K.Min - K.Residue < 0)
      Info.Min = 0;
  }
  SymbolId S = R.Syms.intern("param:" + Name, Info);
  return Value::integer(Poly::symbol(S, K.Modulus) + Poly::constant(K.Residue));
}

Value WarpInterp::paramFieldValue(const ParmVarDecl *PD, const std::string &Path,
                      QualType T) {
  T = T.getCanonicalType();
  if (T->isPointerType())
    return Value::pointer(paramRegion(PD, Path), Poly());
  if (isIntegral(T)) {
    auto Known = R.Launch.FieldArgs.find({PD, Path});
    if (Known != R.Launch.FieldArgs.end())
      return Value::constant(Known->second);
    return unknownParam(PD, Path);
  }
  if (T->isScalarType())
    return Value::uniformOpaque(llvm::hash_combine(std::string("param"), PD->getName(), Path));
  return Value::opaque();
}

Value WarpInterp::paramAggregate(const ParmVarDecl *PD, const std::string &Path, QualType T) {
  FieldValues Out;
  std::function<void(QualType, const std::string &, unsigned)> Walk =
      [&](QualType Ty, const std::string &At, unsigned Depth) {
        const RecordDecl *RD = Ty->getAsRecordDecl();
        if (!RD || !(RD = RD->getDefinition()) || Depth > 8 || Out.size() > MaxTrackedElements)
          return;
        // Fields as `p.f` names them: a base's and an anonymous member's as
        // the object's own.
        if (auto *CXX = dyn_cast<CXXRecordDecl>(RD))
          for (const CXXBaseSpecifier &B : CXX->bases())
            if (!B.isVirtual())
              Walk(B.getType(), At, Depth + 1);
        for (const FieldDecl *FD : RD->fields()) {
          const QualType FT = FD->getType().getCanonicalType();
          if (FD->isBitField())
            continue;
          if (!FD->getIdentifier()) {
            if (FT->isRecordType())
              Walk(FT, At, Depth + 1);
            continue;
          }
          const std::string Name = At + "." + FD->getName().str();
          if (FT->isRecordType())
            Walk(FT, Name, Depth + 1);
          else if (isIntegral(FT) || FT->isPointerType())
            Out.emplace(Name.substr(Path.size()), paramFieldValue(PD, Name, FT));
          else if (const ConstantArrayType *AT = Ctx.getAsConstantArrayType(FT)) {
            // Elements of an array field: `p.idx[1]`, as subscripts name them.
            const QualType ET = AT->getElementType().getCanonicalType();
            const uint64_t N = std::min<uint64_t>(AT->getZExtSize(), 64);
            for (uint64_t I = 0; I < N; ++I) {
              const std::string El = Name + "[" + std::to_string(I) + "]";
              if (ET->isRecordType())
                Walk(ET, El, Depth + 1);
              else if (isIntegral(ET) || ET->isPointerType())
                Out.emplace(El.substr(Path.size()), paramFieldValue(PD, El, ET));
            }
          }
        }
      };
  Walk(T.getCanonicalType(), Path, 0);
  return Value::aggregate(std::move(Out));
}

std::optional<int64_t> WarpInterp::constantOf(const Expr *E) {
  auto It = Constants.find(E);
  if (It == Constants.end()) {
    std::optional<int64_t> V;
    if (!E->isValueDependent())
      if (std::optional<llvm::APSInt> C = E->getIntegerConstantExpr(Ctx))
        V = C->getExtValue();
    It = Constants.try_emplace(E, V).first;
  }
  return It->second;
}

void WarpInterp::run() {
  Frames.emplace_back();
  Frame &F = frame();
  F.FD = R.Kernel;
  for (const ParmVarDecl *PD : R.Kernel->parameters())
    F.Vars[PD] = paramValue(PD);
  Active = Exists;
  F.Entry = Active;
  if (!R.Emitted) {
    exec(R.Kernel->getBody());
    return;
  }
  // The compiler witness joins the warp's events with the instructions
  // nvcc emitted once the walk is complete: every event is held back until
  // then (a walk given up hands on what it has, unjoined).
  ++BufferDepth;
  try {
    exec(R.Kernel->getBody());
  } catch (...) {
    --BufferDepth;
    flushBuffered();
    throw;
  }
  --BufferDepth;
  Models.warpRan();
  flushBuffered();
}

} // namespace interp

void interpretWarp(KernelRun &Run, unsigned Warp) {
  ++Run.Walks;
  interp::WarpInterp I(Run, Warp);
  I.run();
}

InterpreterLimits salvageLimits(const InterpreterLimits &L) {
  InterpreterLimits S = L;
  S.MaxConcreteIterations = 0;
  S.MaxCallDepth = std::min(L.MaxCallDepth, 8u);
  return S;
}

} // namespace coalesce
