//===- Instructions.cpp - LDGSTS and LDSM/STSM counting rules -------------===//
//
// The rules and the measurements behind them: Instructions.h.
//===----------------------------------------------------------------------===//

#include "model/Instructions.h"

#include <algorithm>
#include <tuple>
#include <array>
#include <vector>

namespace coalesce {

namespace {

/// The most lanes (of those in [First, First + Count) that are active) whose
/// bytes [Addr, Addr + Width) lie in any one of the 32 banks of 4 bytes.
unsigned laneDegree(const LaneInts &Addr, LaneMask Active, unsigned Width, unsigned First,
                    unsigned Count) {
  std::array<unsigned, NumBanks> PerBank{};
  for (unsigned L = First; L < First + Count && L < WarpSize; ++L) {
    if (!laneActive(Active, L))
      continue;
    const UnitSpan Words = wordsTouched(Addr[L], Width);
    // A lane's bytes cover at most 4 words (16 bytes): each bank once.
    std::array<bool, NumBanks> Seen{};
    for (int64_t W = Words.First; W <= Words.Last; ++W) {
      const unsigned B = bankOfWord(W);
      if (!Seen[B]) {
        Seen[B] = true;
        ++PerBank[B];
      }
    }
  }
  return *std::max_element(PerBank.begin(), PerBank.end());
}

bool anyActive(LaneMask Active, unsigned First, unsigned Count) {
  for (unsigned L = First; L < First + Count && L < WarpSize; ++L)
    if (laneActive(Active, L))
      return true;
  return false;
}

LaneMask lanesOf(unsigned First, unsigned Count) {
  LaneMask M = 0;
  for (unsigned L = First; L < First + Count && L < WarpSize; ++L)
    M |= LaneMask(1) << L;
  return M;
}

} // namespace

BankCount countMatrixWavefronts(const LaneInts &ByteAddr, unsigned Matrices) {
  BankCount R;
  for (unsigned M = 0; M < Matrices && M < WarpSize / LanesPerMatrix; ++M) {
    // Distinct rows per 16-byte bank group.
    std::array<std::vector<int64_t>, NumBanks * BankWordBytes / MatrixRowBytes> Groups;
    for (unsigned L = M * LanesPerMatrix; L < (M + 1) * LanesPerMatrix; ++L) {
      const int64_t Row = floorDiv(ByteAddr[L], MatrixRowBytes);
      auto &G = Groups[floorMod(Row, int64_t(Groups.size()))];
      if (std::find(G.begin(), G.end(), Row) == G.end())
        G.push_back(Row);
    }
    unsigned Ways = 0;
    for (const auto &G : Groups)
      Ways = std::max<unsigned>(Ways, G.size());
    R.Wavefronts += Ways;
    R.MaxWays = std::max(R.MaxWays, Ways);
    ++R.Ideal;
  }
  return R;
}

BypassQuarter classifyBypassQuarter(const LaneInts &Global, const LaneInts &Shared,
                                    LaneMask Active, unsigned Q) {
  const unsigned First = Q * 8;
  std::vector<unsigned> On;
  for (unsigned L = First; L < First + 8; ++L)
    if (laneActive(Active, L))
      On.push_back(L);
  if (On.empty())
    return BypassQuarter::Idle;
  // By sectors: every global sector the quarter reads is read whole by two
  // of its lanes, whose chunks fill one aligned 32-byte slot of shared
  // memory (in either order). Otherwise, per lane: does its chunk share a
  // sector with no other lane's, or is it read by another lane too (the
  // source side); does it meet another lane's bank group (the destination).
  bool BySectors = true, Split = true;
  unsigned SourceBad = 0, DestBad = 0;
  for (unsigned L : On) {
    unsigned Partners = 0, Dups = 0;
    bool SameSlot = false, DestMeets = false, Adjacent = false;
    const int64_t Sector = floorDiv(Global[L], SectorBytes);
    for (unsigned M : On) {
      if (M == L)
        continue;
      if (Global[M] == Global[L]) {
        ++Dups;
      } else if (floorDiv(Global[M], SectorBytes) == Sector) {
        ++Partners;
        SameSlot = floorDiv(Shared[M], SectorBytes) == floorDiv(Shared[L], SectorBytes) &&
                   Shared[M] != Shared[L];
        // The two halves of the sector side by side, in the same order.
        Adjacent = Shared[M] - Shared[L] == Global[M] - Global[L];
      }
      if (floorMod(floorDiv(Shared[M], 16), 8) == floorMod(floorDiv(Shared[L], 16), 8))
        DestMeets = true;
    }
    const bool Whole = floorMod(Global[L], 16) == 0 && floorMod(Shared[L], 16) == 0;
    BySectors &= Whole && Partners == 1 && Dups == 0 && SameSlot;
    Split &= Whole && Partners == 1 && Dups == 0 && Adjacent;
    SourceBad += !(Whole && Partners >= 1 && Dups == 0);
    DestBad += DestMeets;
  }
  if (BySectors)
    return BypassQuarter::ByLine;
  // The split-sector rule holds where it was measured: the quarter's chunks,
  // in lane order, lie in at most two runs of adjacent chunks (the end of a
  // row and the start of the next, or one row). Pairs each in a run of its
  // own (pairs 48 bytes apart: split_sectors.cu's pairs48, 24 wavefronts
  // measured on an H100 where the rule says 20) are not modelled.
  unsigned Runs = 0;
  for (size_t I = 0; I < On.size(); ++I)
    Runs += I == 0 || Shared[On[I]] != Shared[On[I - 1]] + 16;
  if (Split && Runs <= 2)
    return BypassQuarter::SplitSectors;
  if (SourceBad == On.size() || DestBad == On.size())
    return BypassQuarter::ByLane;
  return BypassQuarter::Unmodelled;
}

/// The distinct (128-byte global line, 128-byte shared block) pairs the
/// lanes of Quarter move data between.
unsigned lineBlockPairs(const LaneInts &Global, const LaneInts &Shared, LaneMask Quarter) {
  std::vector<std::pair<int64_t, int64_t>> Pairs;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(Quarter, L))
      Pairs.push_back({floorDiv(Global[L], 128), floorDiv(Shared[L], 128)});
  std::sort(Pairs.begin(), Pairs.end());
  return static_cast<unsigned>(std::unique(Pairs.begin(), Pairs.end()) - Pairs.begin());
}

/// A SplitSectors quarter: the distinct (128-byte line, 128-byte shared
/// block) pairs of each pass (the aligned pairs' chunks; the split pairs'
/// first halves; their second halves), and the sectors (a split pair's
/// twice).
std::pair<unsigned, unsigned> splitSectorsCost(const LaneInts &Global, const LaneInts &Shared,
                                               LaneMask Quarter) {
  std::vector<std::tuple<int, int64_t, int64_t>> Pieces;
  unsigned Sectors = 0;
  for (unsigned L = 0; L < WarpSize; ++L) {
    if (!laneActive(Quarter, L))
      continue;
    // The pair's first lane: the lower address of the sector.
    int64_t Low = Shared[L];
    for (unsigned M = 0; M < WarpSize; ++M)
      if (M != L && laneActive(Quarter, M) &&
          floorDiv(Global[M], SectorBytes) == floorDiv(Global[L], SectorBytes))
        Low = std::min(Low, Shared[M]);
    const bool Aligned = floorMod(Low, SectorBytes) == 0;
    const int Pass = Aligned ? 0 : Shared[L] == Low ? 1 : 2;
    Pieces.emplace_back(Pass, floorDiv(Global[L], 128), floorDiv(Shared[L], 128));
    if (Shared[L] == Low)
      Sectors += Aligned ? 1 : 2;
  }
  std::sort(Pieces.begin(), Pieces.end());
  const unsigned Passes =
      static_cast<unsigned>(std::unique(Pieces.begin(), Pieces.end()) - Pieces.begin());
  return {Passes, Sectors};
}

bool bypassModelled(const LaneInts &Global, const LaneInts &Shared, LaneMask Active) {
  for (unsigned Q = 0; Q < 4; ++Q)
    if (classifyBypassQuarter(Global, Shared, Active, Q) == BypassQuarter::Unmodelled)
      return false;
  return true;
}

BankCount countAsyncCopyWavefronts(const LaneInts &Global, const LaneInts &Shared,
                                   LaneMask Active, unsigned Width, bool Bypass) {
  BankCount R;
  const unsigned Phase = lanesPerPhase(Width);
  for (unsigned First = 0; First < WarpSize; First += Phase) {
    if (!anyActive(Active, First, Phase))
      continue;
    ++R.Ideal;
    unsigned Ways;
    if (Bypass) {
      const LaneMask Quarter = Active & lanesOf(First, Phase);
      const BypassQuarter K = classifyBypassQuarter(Global, Shared, Active, First / Phase);
      Ways = K == BypassQuarter::ByLine         ? lineBlockPairs(Global, Shared, Quarter)
             : K == BypassQuarter::SplitSectors ? splitSectorsCost(Global, Shared, Quarter).first
                                                : Phase;
    } else
      Ways = std::max({1u, laneDegree(Global, Active, Width, First, Phase),
                       laneDegree(Shared, Active, Width, First, Phase)});
    R.Wavefronts += Ways;
    R.MaxWays = std::max(R.MaxWays, Ways);
  }
  return R;
}

SectorCount countAsyncCopySectors(const LaneInts &Global, const LaneInts &Shared,
                                  LaneMask Active, unsigned Width, bool Bypass) {
  SectorCount Whole = countSectors(Global, Active, Width);
  if (!Bypass)
    return Whole;
  SectorCount R;
  R.Lines = Whole.Lines;
  const unsigned Phase = lanesPerPhase(Width);
  for (unsigned First = 0; First < WarpSize; First += Phase) {
    const LaneMask Quarter = Active & lanesOf(First, Phase);
    if (!Quarter)
      continue;
    const BypassQuarter K = classifyBypassQuarter(Global, Shared, Active, First / Phase);
    if (K == BypassQuarter::ByLine) {
      R.Sectors += countSectors(Global, Quarter, Width).Sectors;
    } else if (K == BypassQuarter::SplitSectors) {
      R.Sectors += splitSectorsCost(Global, Shared, Quarter).second;
    } else {
      for (unsigned L = First; L < First + Phase; ++L)
        if (laneActive(Active, L))
          R.Sectors += countSectors(Global, LaneMask(1) << L, Width).Sectors;
    }
  }
  // The ideal Nsight Compute gives this form: the distinct bytes the copy
  // writes to shared memory, in sectors (two lanes writing one chunk count
  // once; probe_async.cu line 54).
  std::vector<int64_t> Chunks;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(Active, L))
      Chunks.push_back(floorDiv(Shared[L], Width));
  std::sort(Chunks.begin(), Chunks.end());
  Chunks.erase(std::unique(Chunks.begin(), Chunks.end()), Chunks.end());
  R.Ideal = std::min<unsigned>(R.Sectors, (Chunks.size() * Width + SectorBytes - 1) / SectorBytes);
  return R;
}

std::string instructionName(InstrKind Kind, bool Store, unsigned Width, unsigned Matrices) {
  switch (Kind) {
  case InstrKind::Plain:
    return "";
  case InstrKind::AsyncCopy:
    return "cp.async.ca " + std::to_string(Width) + " bytes (LDGSTS" +
           (Width == 8 ? ".64" : Width == 16 ? ".128" : "") + ")";
  case InstrKind::AsyncCopyBypass:
    return "cp.async.cg " + std::to_string(Width) + " bytes (LDGSTS.BYPASS.128)";
  case InstrKind::Matrix:
    return std::string(Store ? "stmatrix" : "ldmatrix") + " .x" + std::to_string(Matrices) +
           (Store ? " (STSM)" : " (LDSM)");
  case InstrKind::SharedAtomic:
    return "";
  case InstrKind::TensorCopy:
    return Store ? "cp.async.bulk.tensor, global to shared (UTMALDG)"
                 : "cp.async.bulk.tensor, shared to global (UTMASTG)";
  case InstrKind::Wgmma:
    return "wgmma.mma_async (HGMMA), " + std::to_string(Matrices) +
           " bytes of shared operands per warpgroup";
  }
  return "";
}

double wgmmaWavefrontsPerWarp(unsigned Bytes) {
  return static_cast<double>(Bytes) / 128.0 / 4.0;
}

SharedAtomicCount countSharedAtomicWavefronts(const LaneInts &ByteAddr, LaneMask Active) {
  SharedAtomicCount R;
  std::vector<int64_t> Words;
  for (unsigned L = 0; L < WarpSize; ++L)
    if (laneActive(Active, L))
      Words.push_back(floorDiv(ByteAddr[L], BankWordBytes));
  if (Words.empty())
    return R;
  std::sort(Words.begin(), Words.end());
  if (Words.front() == Words.back()) {
    R.Unknown = "every lane on one word: nvcc may combine the warp's atomics into one "
                "(one lane's, when it can prove the address the same for all), or not";
    return R;
  }
  // Every lane is served on its own: the most lanes on one bank.
  unsigned LanesPerBank[NumBanks] = {};
  for (int64_t W : Words)
    ++LanesPerBank[bankOfWord(W)];
  unsigned ByLanes = 0;
  for (unsigned B = 0; B < NumBanks; ++B)
    ByLanes = std::max(ByLanes, LanesPerBank[B]);
  R.Wavefronts = ByLanes;
  return R;
}

} // namespace coalesce
