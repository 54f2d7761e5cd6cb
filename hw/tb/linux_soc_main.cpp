// Verilator main of the Linux SoC testbench (hw/tb/hdl/tb_linux_soc.v): toggles the clock until
// the testbench calls $finish. Plusargs go to the testbench.
#include <memory>

#include "Vtb_linux_soc.h"
#include "verilated.h"

int main(int argc, char **argv)
{
	const std::unique_ptr<VerilatedContext> context{new VerilatedContext};
	context->commandArgs(argc, argv);
	const std::unique_ptr<Vtb_linux_soc> top{new Vtb_linux_soc{context.get()}};
	top->clk = 0;
	while (!context->gotFinish()) {
		top->clk = !top->clk;
		top->eval();
		context->timeInc(5);
	}
	top->final();
	return 0;
}
