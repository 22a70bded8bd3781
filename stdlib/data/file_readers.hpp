// The data module's file readers (rows of data_module.cpp's table): loadtxt, load_npy, save_npy,
// load_npz, save_npz. from_file is a global (install_file_data).
#pragma once

#include "amps/amps.hpp"

namespace amps::stdlib::data {

Value b_data_loadtxt(Vm& vm, Call& call);
Value b_data_load_npy(Vm& vm, Call& call);
Value b_data_save_npy(Vm& vm, Call& call);
Value b_data_load_npz(Vm& vm, Call& call);
Value b_data_save_npz(Vm& vm, Call& call);

}  // namespace amps::stdlib::data
