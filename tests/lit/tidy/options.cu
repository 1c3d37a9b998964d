// What the options do, and that the CLI's flags do the same:
//   MinRatio = the CLI's --min-ratio, Block = --block, ReportUnknown = true
//   by default in both (ReportUnknown=false = --no-unknown).
//
// RUN: %tidy %s -- %cuda-flags \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ASSUMED,UNKNOWN --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ASSUMED,UNKNOWN --implicit-check-not=warning: --implicit-check-not=remark:
//
// RUN: %tidy --config="{CheckOptions: {coalesce-uncoalesced-global.MinRatio: 2.5, coalesce-uncoalesced-global.Block: '16,16', coalesce-uncoalesced-global.ReportUnknown: false}}" %s -- %cuda-flags \
// RUN:   | FileCheck %s --check-prefixes=RATIO,BLOCK --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --no-unknown --min-ratio=2.5 --block=16,16 %s \
// RUN:   | FileCheck %s --check-prefixes=RATIO,BLOCK --implicit-check-not=warning: --implicit-check-not=remark:
//
// RUN: %tidy --config="{CheckOptions: {coalesce-uncoalesced-global.ReportUnknown: false}}" %s -- %cuda-flags \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ASSUMED --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --no-unknown %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,ASSUMED --implicit-check-not=warning: --implicit-check-not=remark:
//
// Per kernel name, several separated by ';' (the CLI's repeated --block).
// RUN: %tidy --config="{CheckOptions: {coalesce-uncoalesced-global.Block: 'not_launched=16,16;64', coalesce-uncoalesced-global.ReportUnknown: false}}" %s -- %cuda-flags \
// RUN:   | FileCheck %s --check-prefixes=CHECK,NAMED --implicit-check-not=warning: --implicit-check-not=remark:
// RUN: %lint --no-unknown --block=not_launched=16,16 --block=64 %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,NAMED --implicit-check-not=warning: --implicit-check-not=remark:
//
// Invalid values are reported as configuration problems and ignored.
// RUN: %tidy --config="{CheckOptions: {coalesce-uncoalesced-global.MinRatio: 0.5, coalesce-uncoalesced-global.Block: '2048', coalesce-shared-bank-conflict.Block: '32,x', coalesce-uncoalesced-global.ReportUnknown: maybe}}" %s -- %cuda-flags \
// RUN:   2>&1 | FileCheck %s --check-prefixes=CHECK,ASSUMED,BAD,UNKNOWN --implicit-check-not=warning: --implicit-check-not=remark:
// BAD-DAG: warning: invalid configuration value '0.5' for option 'coalesce-uncoalesced-global.MinRatio': expected a number >= 1; ignored [clang-tidy-config]
// BAD-DAG: warning: invalid configuration value '2048' for option 'coalesce-uncoalesced-global.Block': a block holds at most 1024 threads; ignored [clang-tidy-config]
// BAD-DAG: warning: invalid configuration value '32,x' for option 'coalesce-shared-bank-conflict.Block': expected X[,Y[,Z]] or KERNEL=X[,Y[,Z]] with positive integers, several separated by ';'; ignored [clang-tidy-config]
// BAD-DAG: warning: invalid configuration value 'maybe' for option 'coalesce-uncoalesced-global.ReportUnknown': expected true or false; ignored [clang-tidy-config]
// RUN: %tidy --config="{CheckOptions: {coalesce-uncoalesced-global.Block: 'not_launched=0,4;32'}}" %s -- %cuda-flags \
// RUN:   2>&1 | FileCheck %s --check-prefixes=CHECK,ASSUMED,BAD2,UNKNOWN --implicit-check-not=warning: --implicit-check-not=remark:
// BAD2-DAG: warning: invalid configuration value 'not_launched=0,4;32' for option 'coalesce-uncoalesced-global.Block': block dimensions must be at least 1; ignored [clang-tidy-config]

// Launched: 8 and 32 sectors per request (ideal 4), 2x and 8x.
__global__ void strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i] + in[8 * i];
  // CHECK: :[[@LINE-1]]:12: warning: {{(.*: )?}}global load from 'in' uses 8 sectors per request (ideal 4): lanes are 8 bytes apart [coalesce-uncoalesced-global]
  // CHECK: :[[@LINE-2]]:24: warning: {{(.*: )?}}global load from 'in' uses 32 sectors per request (ideal 4): lanes are 32 bytes apart [coalesce-uncoalesced-global]
  // RATIO: :[[@LINE-3]]:24: warning: {{(.*: )?}}global load from 'in' uses 32 sectors per request (ideal 4): lanes are 32 bytes apart [coalesce-uncoalesced-global]
}

// Not launched in this file: the block shape is assumed (blockDim.x a
// multiple of 32), or taken from Block / --block.
__global__ void not_launched(const float *in, float *out) {
  out[threadIdx.y * 16 + threadIdx.x] = in[threadIdx.x * 16 + threadIdx.y];
  // ASSUMED: :[[@LINE-1]]:41: warning: {{(.*: )?}}global load from 'in' uses 32 sectors per request (ideal 4): lanes are 64 bytes apart [coalesce-uncoalesced-global]
  // ASSUMED: note: blockDim unknown (no launch in this file): assuming blockDim.x is a multiple of 32
  // BLOCK: :[[@LINE-3]]:41: warning: {{(.*: )?}}global load from 'in' uses 16 sectors per request (ideal 4)
  // BLOCK: note: {{(in [^:]*: )?}}assuming blockDim = (16, 16, 1) from {{--block|the check option Block}}
  // NAMED: :[[@LINE-5]]:41: warning: {{(.*: )?}}global load from 'in' uses 16 sectors per request (ideal 4)
  // NAMED: note: {{(in [^:]*: )?}}assuming blockDim = (16, 16, 1) from {{--block=not_launched=16,16|the check option Block=not_launched=16,16}} (no launch in this file)
}

__global__ void gather(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
  // UNKNOWN: :[[@LINE-1]]:12: remark: global load from 'in' cannot be predicted: depends on data loaded by `idx[i]` [coalesce-uncoalesced-global]
}

int main() {
  float *a, *b;
  int *idx;
  strided<<<64, 256>>>(a, b);
  gather<<<64, 256>>>(a, idx, b);
}
