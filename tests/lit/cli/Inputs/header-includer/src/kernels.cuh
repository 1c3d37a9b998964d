#pragma once
#include "kernels/transpose.cuh"
#include "kernels/rows.cuh"
