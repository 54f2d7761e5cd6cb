// Verilator main of the Linux SoC testbench (hw/tb/hdl/tb_linux_soc.v): toggles the clock until
// the testbench calls $finish. Plusargs go to the testbench; two are the main's own:
//   +save=FILE     when /init asks for its parameters (the testbench's `ckpt`), save the model
//                  (Verilator's save/restore) to FILE and end: the checkpoint after the boot
//   +restore=FILE  start from such a checkpoint instead of the reset; the testbench's `reload`
//                  opens its files again and writes the run's parameters (+params=FILE)
// Exit 0 when the simulation ended ($finish) or the checkpoint was saved; 2 when a checkpoint
// cannot be read or written.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "Vtb_linux_soc.h"
#include "verilated.h"
#include "verilated_save.h"

static std::string plusarg(VerilatedContext *context, const char *name)
{
	const std::string key = std::string{"+"} + name + "=";
	const std::string match = context->commandArgsPlusMatch(key.c_str() + 1);
	return match.compare(0, key.size(), key) == 0 ? match.substr(key.size()) : std::string{};
}

int main(int argc, char **argv)
{
	const std::unique_ptr<VerilatedContext> context{new VerilatedContext};
	context->commandArgs(argc, argv);
	const std::unique_ptr<Vtb_linux_soc> top{new Vtb_linux_soc{context.get()}};
	const std::string save = plusarg(context.get(), "save");
	const std::string restore = plusarg(context.get(), "restore");
	int reload = 0;

	top->clk = 0;
	top->reload = 0;
	if (!restore.empty()) {
		VerilatedRestore in;
		in.open(restore.c_str());
		if (!in.isOpen()) {
			std::fprintf(stderr, "linux_soc_main: cannot read the checkpoint %s\n",
				     restore.c_str());
			return 2;
		}
		in >> context.get() >> *top;
		in.close();
		reload = 2;  // the next rising edge (the model was saved just after one)
	}
	while (!context->gotFinish()) {
		top->clk = !top->clk;
		top->reload = reload > 0 && top->clk;
		top->eval();
		context->timeInc(5);
		if (reload > 0)
			reload--;
		if (!save.empty() && top->clk && top->ckpt) {
			VerilatedSave out;
			out.open(save.c_str());
			if (!out.isOpen()) {
				std::fprintf(stderr, "linux_soc_main: cannot write the checkpoint %s\n",
					     save.c_str());
				return 2;
			}
			out << context.get() << *top;
			out.close();
			std::printf("linux_soc_main: checkpoint saved at time %llu\n",
				    static_cast<unsigned long long>(context->time()));
			return 0;
		}
	}
	top->final();
	return 0;
}
