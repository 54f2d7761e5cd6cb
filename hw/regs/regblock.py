"""Generate the register blocks of the latmon IP (Verilog-2005) from the SystemRDL map.

Each part of the map (the `latmon_part` property of a register: "core", "irq", "hist", ...)
becomes one module, hw/rtl/generated/latmon_regs_<part>.v, that holds every register of that part —
declaration, reset, write decode, read multiplexer — written once, here, from the RDL. The
AXI4-Lite handshake is not in these modules: latmon_axil_wr and latmon_axil_rd (hand-written,
after verilog-axi's axil_reg_if_wr/_rd) turn the bus into the register interface below, and the
IP ORs the parts' read data. A part the IP is built without is not instantiated at all.

Register interface of every generated module:

    wr_req, wr_addr                     a write is decoded in this cycle (AW and W valid, not
                                        yet accepted): the block registers the address's page
                                        and word (one flip-flop per page and per writable
                                        register, loaded every cycle) and that wr_req was high
    wr_data, wr_strb                    the next cycle (latmon_axil_wr accepts AW and W then,
                                        so the bus still holds them): the write is done
    wr_hit                              in that next cycle, from flip-flops through one gate:
                                        whether wr_addr was a register of this part
    rd_req, rd_addr                     a read accepted in this cycle (the AR handshake): the
                                        block registers which of its registers it is (one
                                        flip-flop per register, loaded every cycle) and, in
                                        two flip-flops of its own, whether rd_req is a read of
                                        its page or of another address
    (the next cycle, "load")            from those two flip-flops, the block registers the
                                        selected register's value and its hit, or zero
    rd_data, rd_hit                     from flip-flops (rd_data: an OR of them): valid from
                                        the cycle after the load until the next load;
                                        rd_data is zero when rd_hit is 0

With the module parameter REG_DECODE = 0 (the small timing structure) the read is decoded in
the AR cycle instead: the value of the register at rd_addr (a multiplexer on bits 7:2) and the
hit are registered at rd_req, in one 32-bit register and one flip-flop (no select flip-flops, no
second step); rd_data and rd_hit are valid from the cycle after rd_req, as above, and swacc is
then rd_req with the register's address. The rest of this section is REG_DECODE = 1.

Neither the address decode nor a multiplexer sits in series with a register's enable or with
another: the decode ends in flip-flops loaded in every cycle from the address alone (a page
flip-flop per page, a one-hot word select per register); a write's enable is wr_go (wr_req
registered, not in reset: the write cycle) && page && word, so the handshake and the decode
meet only in that one gate; the read
value is an AND-OR of the registers' values with their select flip-flops (no binary index to
decode again, and each select drives only its own register's bits).

Field behaviour follows the SystemRDL properties:

    sw=r,  hw=na                constant (the reset value)
    sw=r,  hw=w                 input port <reg>_<field>, read as is
    sw=r,  hw=w, we [, hwclr]   stored: loaded from the input when <port>_we is high, zero
                                when <port>_hwclr is high (hwclr wins)
    sw=rw, hw=r                 stored, output port; WSTRB selects bytes
    sw=rw, singlepulse          output pulse for one cycle after a write of 1; reads 0
    latmon_copy (singlepulse)   a second flip-flop with the same pulse, output <port>_copy, for
                                a consumer far from the others (stored inverted: the synthesis
                                cannot merge it with the first)
    sw=rw, woclr, hwset, hwclr  stored; <port>_hwset sets it, a written 1 clears it, <port>_hwclr
                                (CTRL.CLEAR) clears it; hwclr wins over hwset wins over the write
    swmod                       output <port>_swmod: this cycle's write modifies the field (for a
                                woclr field: a 1 is written to it)
    swacc                       output <port>_swacc: the register's value is sampled for a read
                                at this clock edge (the load of a read of it)
    latmon_width = "PARAM"      the hardware keeps PARAM bits: ports are PARAM bits wide, the
                                field reads zero above them, and a written value that does not
                                fit saturates to all ones (it never wraps)

Addresses are decoded on byte-address bits [ADDR_WIDTH-1:2]: the two low bits are ignored (an
AXI4-Lite master sends word-aligned addresses; 0x001 reads the register at 0x000).
A part's registers share one 256-byte page (bits 15:8); the generator stops with a message
otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from systemrdl.node import AddrmapNode, FieldNode, RegNode
from systemrdl.rdltypes import OnWriteType

# The most registers in one AND-OR of the read data (see RegBlock.read_mux).
READ_PIECE = 6

PART_PROPERTY = "latmon_part"
WIDTH_PROPERTY = "latmon_width"
COPY_PROPERTY = "latmon_copy"


@dataclass
class Field:
    reg: str
    name: str
    lsb: int
    width: int
    reset: int
    kind: str  # const, input, capture, rw, pulse, w1c
    width_param: str | None
    hwclr: bool = False
    swmod: bool = False
    swacc: bool = False
    copy: bool = False

    @property
    def port(self) -> str:
        return f"{self.reg}_{self.name}".lower()

    @property
    def hw_width(self) -> str:
        """The Verilog expression of the width the hardware keeps."""
        return self.width_param or str(self.width)

    def vector(self) -> str:
        """The port's range, or "" for one bit."""
        if self.width_param:
            return f"[{self.width_param}-1:0]"
        return f"[{self.width - 1}:0]" if self.width > 1 else ""


@dataclass
class Register:
    name: str
    offset: int
    fields: list[Field] = field(default_factory=list)

    @property
    def ident(self) -> str:
        return self.name.lower()

    @property
    def writable(self) -> bool:
        return any(f.kind in ("rw", "pulse", "w1c") for f in self.fields)


# The attribute of the address decode's nets: kept as nets of their own with the registered
# decode (REG_DECODE = 1: for Fmax, see ModuleWriter.decode); with REG_DECODE = 0 left to the
# synthesis, which folds them into fewer LUTs. A macro (KEEP_MACRO), empty for Icarus: Icarus
# takes only a constant as an attribute's value on a net declaration and drops, with a warning,
# any attribute on a net declaration assignment; it has no use for keep.
KEEP = "`LATMON_DECODE_KEEP"
KEEP_MACRO = (
    "`ifndef LATMON_DECODE_KEEP",
    "`ifdef __ICARUS__",
    "`define LATMON_DECODE_KEEP",
    "`else",
    "`define LATMON_DECODE_KEEP (* keep = REG_DECODE != 0 *)",
    "`endif",
    "`endif",
)


def field_kind(f: FieldNode) -> str:
    if not f.is_sw_writable:
        if f.is_hw_writable:
            return "capture" if f.get_property("we") else "input"
        return "const"
    if f.get_property("onwrite") == OnWriteType.woclr:
        if not f.get_property("hwset"):
            raise SystemExit(f"regblock: {f.get_path()}: a woclr field needs hwset")
        return "w1c"
    if f.get_property("singlepulse"):
        return "pulse"
    if f.get_property("onwrite") is not None:
        raise SystemExit(
            f"regblock: {f.get_path()}: onwrite {f.get_property('onwrite')} unsupported"
        )
    return "rw"


def parts(top: AddrmapNode) -> dict[str, list[Register]]:
    """The registers of the map grouped by their latmon_part, each in address order."""
    out: dict[str, list[Register]] = {}
    for node in top.descendants():
        if not isinstance(node, RegNode):
            continue
        part = node.get_property(PART_PROPERTY, default=None)
        if not part:
            raise SystemExit(f"regblock: {node.get_path()} has no {PART_PROPERTY} property")
        reg = Register(node.inst_name, node.absolute_address)
        for f in node.fields():
            reset = f.get_property("reset") or 0
            assert isinstance(reset, int), f"{f.get_path()}: reset must be a constant"
            kind = field_kind(f)
            reg.fields.append(
                Field(
                    reg=node.inst_name,
                    name=f.inst_name,
                    lsb=f.lsb,
                    width=f.width,
                    reset=reset,
                    kind=kind,
                    width_param=f.get_property(WIDTH_PROPERTY, default=None),
                    hwclr=bool(f.get_property("hwclr")),
                    swmod=bool(f.get_property("swmod")),
                    swacc=bool(f.get_property("swacc")),
                    copy=bool(f.get_property(COPY_PROPERTY, default=False)),
                )
            )
            if reg.fields[-1].copy and kind != "pulse":
                raise SystemExit(
                    f"regblock: {f.get_path()}: {COPY_PROPERTY} is for singlepulse fields only"
                )
            if kind == "pulse" and f.width != 1:
                raise SystemExit(f"regblock: {f.get_path()}: singlepulse fields are one bit")
            if kind in ("w1c", "pulse") and reg.fields[-1].width_param:
                raise SystemExit(f"regblock: {f.get_path()}: {WIDTH_PROPERTY} on a {kind} field")
        out.setdefault(part, []).append(reg)
    for regs in out.values():
        regs.sort(key=lambda r: r.offset)
    return out


def width_params(regs: list[Register]) -> list[str]:
    return sorted({f.width_param for r in regs for f in r.fields if f.width_param})


def _lit(width: int, value: int) -> str:
    return f"{width}'h{value:X}"


class ModuleWriter:
    """Writes one part's module; the methods append lines in module order."""

    def __init__(self, part: str, regs: list[Register], banner: str) -> None:
        self.part = part
        self.regs = regs
        self.banner = banner
        self.name = f"latmon_regs_{part}"
        self.lines: list[str] = []
        self.read_page = ""  # the flip-flop of a read's load of the page (set by decode)
        self.read_other = ""  # ... of a read of another address
        self.page = 0  # the part's 256-byte page (set by decode)
        self.pad = ""  # added in front of every line (inside a generate branch)

    def emit(self, line: str = "") -> None:
        self.lines.append(self.pad + line if line else line)

    # ---- header and ports ----------------------------------------------------------------

    def header(self) -> None:
        names = ", ".join(r.name for r in self.regs)
        self.emit(f"// {self.banner}")
        self.emit(f'// {self.name}: the registers of part "{self.part}" of the latmon IP:')
        words = names.split(" ")
        line = "//  "
        for w in words:
            if len(line) + len(w) + 1 > 98:
                self.emit(line)
                line = "//  "
            line += " " + w
        self.emit(line)
        self.emit("// Register interface and field behaviour: hw/regs/regblock.py.")
        self.emit("`timescale 1ns / 1ps")
        self.emit("`default_nettype none")
        self.emit("// The decode nets' attribute (hw/regs/regblock.py, KEEP): none for Icarus.")
        for line in KEEP_MACRO:
            self.emit(line)
        self.emit("")

    def ports(self) -> None:
        params = width_params(self.regs)
        self.emit(f"module {self.name} #(")
        plist = [
            "    // Width of the AXI4-Lite byte address (16..32).",
            "    parameter ADDR_WIDTH = 16,",
            "    // The read decode: 1 registers it (a select flip-flop per register, the value",
            "    // in the next cycle: for Fmax in large builds); 0 registers the selected value",
            "    // in the AR cycle from the address (fewer LUTs and flip-flops: small builds).",
            "    parameter REG_DECODE = 1",
        ]
        for p in params:
            plist[-1] += ","
            plist.append(f"    // Bits the hardware keeps of the fields sized by {p} (1..32).")
            plist.append(f"    parameter {p} = 32")
        for line in plist:
            self.emit(line)
        self.emit(") (")
        ports = [
            "input  wire                  clk",
            "input  wire                  rst",
            "",
            "// register interface: a write decoded in this cycle, done in the next",
            "input  wire                  wr_req",
            "input  wire [ADDR_WIDTH-1:0] wr_addr",
            "input  wire [31:0]           wr_data",
            "input  wire [3:0]            wr_strb",
            "output wire                  wr_hit",
            "// a read accepted in this cycle; its data from the next cycle on",
            "input  wire                  rd_req",
            "input  wire [ADDR_WIDTH-1:0] rd_addr",
            "output wire [31:0]           rd_data",
            "output wire                  rd_hit",
        ]
        for r in self.regs:
            fields = [f for f in r.fields if f.kind != "const"]
            if not fields:
                continue
            ports.append("")
            ports.append(f"// {r.name} (0x{r.offset:03X})")
            for f in fields:
                vec = f.vector()
                if f.kind == "input":
                    ports.append(f"input  wire {vec:<16} {f.port}")
                elif f.kind == "capture":
                    ports.append(f"input  wire {vec:<16} {f.port}")
                    ports.append(f"input  wire {'':<16} {f.port}_we")
                elif f.kind in ("rw", "pulse"):
                    ports.append(f"output wire {vec:<16} {f.port}")
                    if f.copy:
                        ports.append(f"output wire {vec:<16} {f.port}_copy")
                elif f.kind == "w1c":
                    ports.append(f"output wire {vec:<16} {f.port}")
                    ports.append(f"input  wire {vec:<16} {f.port}_hwset")
                if f.hwclr:
                    ports.append(f"input  wire {'':<16} {f.port}_hwclr")
                if f.swmod:
                    ports.append(f"output wire {'':<16} {f.port}_swmod")
                if f.swacc:
                    ports.append(f"output wire {'':<16} {f.port}_swacc")
        # commas: after every port line but the last (comments and blanks untouched)
        real = [i for i, p in enumerate(ports) if p and not p.startswith("//")]
        for i, p in enumerate(ports):
            if not p:
                self.emit("")
            elif p.startswith("//"):
                self.emit(f"    {p}")
            else:
                self.emit(f"    {p}{',' if i != real[-1] else ''}")
        self.emit(");")
        self.emit("")

    # ---- body ------------------------------------------------------------------------------

    def checks(self) -> None:
        params = width_params(self.regs)
        self.emit("    initial begin")
        self.emit("        if (ADDR_WIDTH < 16 || ADDR_WIDTH > 32)")
        self.emit(
            f'            $fatal(1, "{self.name}: ADDR_WIDTH must be 16..32, not %0d", ADDR_WIDTH);'
        )
        for p in params:
            self.emit(f"        if ({p} < 1 || {p} > 32)")
            self.emit(f'            $fatal(1, "{self.name}: {p} must be 1..32, not %0d", {p});')
        self.emit("    end")
        self.emit("")

    def helpers(self) -> None:
        if any(f.kind in ("rw", "pulse") for r in self.regs for f in r.fields):
            self.emit("    // The bytes a write changes.")
            self.emit(
                "    wire [31:0] wr_mask = {{8{wr_strb[3]}}, {8{wr_strb[2]}}, {8{wr_strb[1]}}, "
                "{8{wr_strb[0]}}};"
            )
            self.emit("")

    @staticmethod
    def word(r: Register) -> int:
        return (r.offset & 0xFF) >> 2

    def word_of(self, bus: str, r: Register) -> str:
        w = self.word(r)
        return f"{bus}_word_hi[{w >> 3}] && {bus}_word_lo[{w & 7}]"

    def decode(self) -> None:
        self.emit(
            "    // ---- address decode ------------------------------------------------------"
        )
        self.emit("")
        # An address is decoded as its 256-byte page (bits 15:8, bits above 15 zero), once per
        # page, and its word in the page (bits 7:2), each kept as a net of its own, so that
        # synthesis neither folds the page into each decode nor chains the decodes through each
        # other: every select or hit is one LUT after them (the page two LUT levels, the word
        # pieces one: three from the address).
        pages = {r.offset >> 8 for r in self.regs}
        if len(pages) != 1:
            listed = ", ".join(f"0x{p:02X}" for p in sorted(pages))
            raise SystemExit(
                f"regblock: part {self.part!r} has registers on pages {listed}: a part's "
                "registers must share one 256-byte page (its read decode registers the page "
                "once); give the part's registers addresses in one page or split the part"
            )
        (page,) = pages
        self.page = page
        self.emit("    // The 256-byte page of the address (bits 1:0 ignored, bits above 15 zero).")
        for bus in ("wr", "rd"):
            self.emit(
                f"    {KEEP} wire {bus}_page_{page:02x} = {bus}_addr[15:8] == 8'h{page:02X} && "
                f"({bus}_addr >> 16) == 0;"
            )
        # (Kept with the registered decode only, KEEP: with REG_DECODE = 0 synthesis may fold
        # them into the read multiplexer and the write decode's flip-flops, which is smaller.)
        # The word in the page: bits 7:5 and 4:2 each decoded one-hot (one LUT per bit), kept,
        # so that a word is an AND of two of them and every select is one LUT after the page
        # (two levels): left to itself, synthesis shares pieces of the word compares between
        # the blocks and chains them (three levels for one six-bit compare).
        self.emit("    // The word in the page (bits 7:2): bits 7:5 and 4:2, each one-hot.")
        self.emit("    /* verilator lint_off UNUSEDSIGNAL */  // the words without a register")
        for bus in ("wr", "rd"):
            self.emit(f"    {KEEP} wire [7:0] {bus}_word_hi = 8'd1 << {bus}_addr[7:5];")
            self.emit(f"    {KEEP} wire [7:0] {bus}_word_lo = 8'd1 << {bus}_addr[4:2];")
        self.emit("    /* verilator lint_on UNUSEDSIGNAL */")

        def word(r: Register) -> int:
            return (r.offset & 0xFF) >> 2

        def word_of(bus: str, r: Register) -> str:
            w = word(r)
            return f"{bus}_word_hi[{w >> 3}] && {bus}_word_lo[{w & 7}]"

        # The words of the page with a register, for the hit of a write and of a read: the one
        # word, or a 64-bit mask indexed by bits 7:2 (one LUT6).
        if len(self.regs) == 1:
            for bus in ("wr", "rd"):
                self.emit(f"    wire {bus}_words_{page:02x} = {word_of(bus, self.regs[0])};")
        else:
            mask = sum(1 << word(r) for r in self.regs)
            self.emit(f"    localparam [63:0] WORDS_{page:02X} = 64'h{mask:016X};")
            for bus in ("wr", "rd"):
                self.emit(
                    f"    {KEEP} wire {bus}_words_{page:02x} = WORDS_{page:02X}[{bus}_addr[7:2]];"
                )
        self.emit("")

        writable = any(r.writable for r in self.regs)
        for line in (
            "Writes: the address decoded in every cycle into flip-flops (in the cycle after",
            "wr_req, that of the write, they tell of wr_req's address): its page, the page's",
            "words with a register (for wr_hit) and each writable register's word. wr_go:",
            "this cycle is the write (wr_req registered, not in reset), done with wr_data",
            "and wr_strb then. A write's enable is wr_go && page && word: one gate after",
            "flip-flops; the handshake and the decode meet only there.",
        ):
            self.emit(f"    // {line}")
        self.emit(f"    reg wr_in_page_{page:02x} = 1'b0;")
        self.emit(f"    reg wr_in_words_{page:02x} = 1'b0;")
        for r in self.regs:
            if r.writable:
                self.emit(f"    reg wr_{r.ident} = 1'b0;  // 0x{r.offset:03X}, in its page")
        if writable:
            self.emit("    reg wr_go = 1'b0;")
        self.emit("    always @(posedge clk) begin")
        if writable:
            self.emit("        wr_go <= wr_req && !rst;")
        self.emit(f"        wr_in_page_{page:02x} <= wr_page_{page:02x};")
        self.emit(f"        wr_in_words_{page:02x} <= wr_words_{page:02x};")
        for r in self.regs:
            if r.writable:
                self.emit(f"        wr_{r.ident} <= {word_of('wr', r)};")
        self.emit("    end")
        self.emit("    // read in the cycle after wr_req only: of that cycle's address")
        self.emit(f"    assign wr_hit = (wr_in_page_{page:02x} && wr_in_words_{page:02x});")
        self.emit("")

    def read_decode(self) -> None:
        page = self.page
        # The read's load is registered in the block, in two flip-flops: a read of its page,
        # a read of any other address. The page's enables the read data and the other zeroes
        # it (a synchronous reset, not a term of the AND-OR), so no select is the page's
        # compare and the word's in one cycle. The two flip-flops are the block's own (each
        # block's page differs, so synthesis cannot merge them with another block's) and sit
        # beside its read data: one load flip-flop for every block, across the device, was a
        # critical path of the everything-on configuration (a 2.2 ns route into its resets).
        self.read_page = f"rd_load_page_{page:02x}"
        self.read_other = f"rd_load_other_{page:02x}"
        self.emit("    // Reads: the address decoded in every cycle into flip-flops: in the")
        self.emit("    // cycle after rd_req (the load) they tell of the AR cycle's address, the")
        self.emit("    // only one used. The load: of a read of this page, or of another address.")
        self.emit(f"    reg {self.read_page} = 1'b0;")
        self.emit(f"    reg {self.read_other} = 1'b0;")
        self.emit(f"    reg rd_in_words_{page:02x} = 1'b0;")
        for r in self.regs:
            self.emit(f"    reg rd_{r.ident} = 1'b0;  // 0x{r.offset:03X}")
        self.emit("    reg rd_hit_reg = 1'b0;")
        self.emit("    always @(posedge clk) begin")
        self.emit(f"        {self.read_page} <= rd_req && rd_page_{page:02x} && !rst;")
        self.emit(f"        {self.read_other} <= rd_req && !rd_page_{page:02x} && !rst;")
        self.emit(f"        rd_in_words_{page:02x} <= rd_words_{page:02x};")
        for r in self.regs:
            self.emit(f"        rd_{r.ident} <= {self.word_of('rd', r)};")
        self.emit("        // with the data (the load), from the select flip-flops")
        # the hit from the load's and the words' flip-flops (an OR of every select was a chain
        # of four LUTs)
        self.emit(f"        if ({self.read_page})")
        self.emit(f"            rd_hit_reg <= rd_in_words_{page:02x};")
        self.emit(f"        if ({self.read_other} || rst)")
        self.emit("            rd_hit_reg <= 1'b0;")
        self.emit("    end")

    @staticmethod
    def read_name(f: Field) -> str:
        """The signal that holds the field's value at its RDL width."""
        if f.width_param:
            return f"{f.port}_ext"
        return f.port if f.kind == "input" else f"{f.port}_reg"

    def _ext(self, f: Field, source: str) -> None:
        """Declare <port>_ext, the field's value at its RDL width (zero above the hardware's),
        for a field sized by a parameter."""
        if not f.width_param:
            return
        self.emit(f"    wire [{f.width - 1}:0] {f.port}_ext;")
        p = f.width_param
        self.emit("    generate")
        self.emit(f"        if ({p} < {f.width}) begin : g_{f.port}_ext")
        self.emit(f"            assign {f.port}_ext = {{{{({f.width}-{p}){{1'b0}}}}, {source}}};")
        self.emit(f"        end else begin : g_{f.port}_full")
        self.emit(f"            assign {f.port}_ext = {source};")
        self.emit("        end")
        self.emit("    endgenerate")

    def storage(self) -> None:
        for r in self.regs:
            stored = [f for f in r.fields if f.kind in ("rw", "pulse", "w1c", "capture")]
            plain = [f for f in r.fields if f.kind == "input" and f.width_param]
            if not stored and not plain:
                continue
            self.emit(f"    // ---- {r.name} " + "-" * max(4, 80 - len(r.name)))
            self.emit("")
            if r.writable:
                self.emit(
                    f"    wire        {r.ident}_we = wr_go && wr_in_page_{r.offset >> 8:02x} && "
                    f"wr_{r.ident};"
                )
            for f in plain:
                self._ext(f, f.port)
            for f in stored:
                self.field_storage(r, f)
            self.emit("")

    def field_storage(self, r: Register, f: Field) -> None:
        w = f.hw_width
        reg = f"{f.port}_reg"
        init = _lit(f.width, f.reset) if not f.width_param else self.reset_expr(f)
        if f.kind == "pulse":
            self.emit(f"    reg {reg} = 1'b0;")
            self.emit(f"    assign {f.port} = {reg};")
            fire = f"!rst && {r.ident}_we && wr_data[{f.lsb}] && wr_mask[{f.lsb}]"
            self.emit("    always @(posedge clk)")
            self.emit(f"        {reg} <= {fire};")
            if f.copy:
                self.emit(f"    reg {f.port}_copy_n = 1'b1;  // inverted: not merged with {reg}")
                self.emit(f"    assign {f.port}_copy = !{f.port}_copy_n;")
                self.emit("    always @(posedge clk)")
                self.emit(f"        {f.port}_copy_n <= !({fire});")
            return
        vec = f.vector()
        self.emit(f"    reg {vec + ' ' if vec else ''}{reg} = {init};")
        self._ext(f, reg)
        if f.kind == "rw":
            new = f"{f.port}_new"
            hi, lo = f.lsb + f.width - 1, f.lsb
            old = f"{f.port}_ext" if f.width_param else reg
            self.emit("    // the written bytes of the field, the others as they are")
            self.emit(
                f"    wire [{f.width - 1}:0] {new} = (wr_data[{hi}:{lo}] & wr_mask[{hi}:{lo}]) |"
            )
            self.emit(f"        ({old} & ~wr_mask[{hi}:{lo}]);")
            if f.width_param:
                self.emit(
                    f"    // saturate: a value that does not fit {w} bits is stored as all ones"
                )
                self.emit(f"    wire {f.port}_sat = ({new} >> {w}) != 0;")
                value = f"{f.port}_sat ? {{{w}{{1'b1}}}} : {new}[{w}-1:0]"
            else:
                value = new
            self.emit(f"    assign {f.port} = {reg};")
            self.emit("    always @(posedge clk) begin")
            self.emit(f"        if ({r.ident}_we)")
            self.emit(f"            {reg} <= {value};")
            self.emit("        if (rst)")
            self.emit(f"            {reg} <= {init};")
            self.emit("    end")
        elif f.kind == "w1c":
            bit = f"{r.ident}_we && wr_data[{f.lsb}] && wr_strb[{f.lsb // 8}]"
            if f.width != 1:
                raise SystemExit(f"regblock: {r.name}.{f.name}: woclr fields are one bit")
            self.emit(f"    wire {f.port}_clr = {bit};")
            self.emit(f"    assign {f.port} = {reg};")
            if f.swmod:
                self.emit(f"    assign {f.port}_swmod = {f.port}_clr;")
            self.emit("    always @(posedge clk) begin")
            self.emit("        // a new event wins over a simultaneous write of 1, so none is lost")
            self.emit(f"        {reg} <= ({reg} && !{f.port}_clr) || {f.port}_hwset;")
            if f.hwclr:
                self.emit(f"        if ({f.port}_hwclr)")
                self.emit(f"            {reg} <= 1'b0;")
            self.emit("        if (rst)")
            self.emit(f"            {reg} <= {init};")
            self.emit("    end")
        elif f.kind == "capture":
            self.emit("    always @(posedge clk) begin")
            self.emit(f"        if ({f.port}_we)")
            self.emit(f"            {reg} <= {f.port};")
            if f.hwclr:
                self.emit(f"        if ({f.port}_hwclr)")
                self.emit(f"            {reg} <= {init};")
            self.emit("        if (rst)")
            self.emit(f"            {reg} <= {init};")
            self.emit("    end")

    def reset_expr(self, f: Field) -> str:
        if f.reset == 0:
            return f"{{{f.hw_width}{{1'b0}}}}"
        if f.reset == (1 << f.width) - 1:
            return f"{{{f.hw_width}{{1'b1}}}}"
        raise SystemExit(
            f"regblock: {f.reg}.{f.name}: a field sized by {f.width_param} resets to 0 or all ones"
        )

    def value_expr(self, r: Register) -> str:
        """The register's 32-bit value as read."""
        parts: list[str] = []
        pos = 32
        for f in sorted(r.fields, key=lambda f: -f.lsb):
            top = f.lsb + f.width
            if top < pos:
                parts.append(f"{pos - top}'d0")
            if f.kind == "const":
                parts.append(_lit(f.width, f.reset))
            elif f.kind == "pulse":
                parts.append(f"{f.width}'d0")
            else:
                parts.append(self.read_name(f))
            pos = f.lsb
        if pos > 0:
            parts.append(f"{pos}'d0")
        return "{" + ", ".join(parts) + "}"

    def read_mux(self) -> None:
        self.emit(
            "    // ---- read ------------------------------------------------------------------"
        )
        self.emit("")
        for r in self.regs:
            self.emit(f"    wire [31:0] read_{r.ident} =")
            self.emit(f"        {self.value_expr(r)};")
        self.emit("")
        self.emit("    generate")
        self.emit("        if (REG_DECODE != 0) begin : g_rd_registered")
        self.pad = "        "
        self.read_decode()
        self.read_registered()
        self.pad = ""
        self.emit("        end else begin : g_rd_direct")
        self.pad = "        "
        self.read_direct()
        self.pad = ""
        self.emit("        end")
        self.emit("    endgenerate")
        self.emit("")

    def read_registered(self) -> None:
        """REG_DECODE = 1: the value of the register whose select flip-flop is set."""
        for r in self.regs:
            for f in r.fields:
                if f.swacc:
                    self.emit(f"    assign {f.port}_swacc = {self.read_page} && rd_{r.ident};")
        # The AND-OR in pieces of at most READ_PIECE registers, each into flip-flops of its
        # own, ORed after them (a part's read data, like the parts', is an OR of flip-flops):
        # twelve registers in one AND-OR were mapped as a chain five LUTs deep.
        pieces = [self.regs[k : k + READ_PIECE] for k in range(0, len(self.regs), READ_PIECE)]
        self.emit(
            "    // Step 2 (the load): the value of the register selected (AND-OR), in pieces"
        )
        self.emit(f"    // of at most {READ_PIECE} registers ORed after their flip-flops.")
        for k in range(len(pieces)):
            self.emit(f"    reg [31:0] rd_data_{k} = 32'd0;")
        self.emit("    always @(posedge clk) begin")
        self.emit(f"        if ({self.read_page}) begin")
        for k, piece in enumerate(pieces):
            terms = f" |\n{self.pad}                ".join(
                f"({{32{{rd_{r.ident}}}}} & read_{r.ident})" for r in piece
            )
            self.emit(f"            rd_data_{k} <= {terms};")
        self.emit("        end")
        self.emit(f"        if ({self.read_other}) begin  // not this part's page")
        for k in range(len(pieces)):
            self.emit(f"            rd_data_{k} <= 32'd0;")
        self.emit("        end")
        self.emit("    end")
        ors = " | ".join(f"rd_data_{k}" for k in range(len(pieces)))
        self.emit(f"    assign rd_data = {ors};")
        self.emit("    assign rd_hit = rd_hit_reg;")

    def read_tree(self, regs: list[Register]) -> str:
        """The value of the register at rd_addr among `regs`: 2:1 multiplexers, each on the
        highest word bit (of bits 7:2) that tells the remaining registers apart, so that only
        the bits that tell them apart are looked at and neighbouring words end in 4:1
        multiplexers on bits 3:2 (one LUT6 a bit): in published, 12 LUT sites fewer than a
        case on bits 7:2 with 0 for the other words. A word without a register reads
        one of them here; the read data's reset makes it 0 (read_direct)."""
        if len(regs) == 1:
            return f"read_{regs[0].ident}"
        bit = max(b for b in range(6) if len({self.word(r) >> b & 1 for r in regs}) == 2)
        ones_regs = [r for r in regs if self.word(r) >> bit & 1]
        zeros_regs = [r for r in regs if not self.word(r) >> bit & 1]
        return f"(rd_addr[{bit + 2}] ? {self.read_tree(ones_regs)} : {self.read_tree(zeros_regs)})"

    def read_direct(self) -> None:
        """REG_DECODE = 0: the value of the register at the AR cycle's address, registered then."""
        page = self.page
        for line in (
            "REG_DECODE = 0: the read decoded in the AR cycle (rd_req) from the address: the",
            "selected register's value and the hit go into one register each then. The value",
            "is a tree of 2:1 multiplexers on the fewest address bits that tell the registers",
            "apart (a word without a register selects one of them); a read of another page or",
            "of such a word zeroes the read data instead (the flip-flops' synchronous reset, no",
            "term of the multiplexer). The value is sampled at rd_req, a cycle before",
            "REG_DECODE = 1 samples it.",
        ):
            self.emit(f"    // {line}")
        for r in self.regs:
            for f in r.fields:
                if f.swacc:
                    self.emit(
                        f"    assign {f.port}_swacc = rd_req && rd_page_{page:02x} && "
                        f"rd_addr[7:2] == 6'd{self.word(r)};"
                    )
        tree = self.read_tree(self.regs)
        self.emit(f"    wire [31:0] rd_value = {tree};")
        self.emit(f"    wire        rd_match = rd_page_{page:02x} && rd_words_{page:02x};")
        self.emit("    reg [31:0] rd_data_reg = 32'd0;")
        self.emit("    reg        rd_hit_reg = 1'b0;")
        self.emit("    always @(posedge clk) begin")
        self.emit("        if (rd_req) begin")
        self.emit("            rd_data_reg <= rd_value;")
        self.emit("            rd_hit_reg <= rd_match;")
        self.emit("        end")
        self.emit("        if (rst || (rd_req && !rd_match))")
        self.emit("            rd_data_reg <= 32'd0;")
        self.emit("        if (rst)")
        self.emit("            rd_hit_reg <= 1'b0;")
        self.emit("    end")
        self.emit("    assign rd_data = rd_data_reg;")
        self.emit("    assign rd_hit = rd_hit_reg;")

    def unused(self) -> None:
        """Consume the inputs a part leaves (partly) unused, so that lint stays quiet."""
        masked = any(f.kind in ("rw", "pulse") for r in self.regs for f in r.fields)
        items = ["wr_data", "wr_strb", "wr_addr[1:0]", "rd_addr[1:0]"]
        items += ["wr_mask"] if masked else []
        items += [] if any(r.writable for r in self.regs) else ["wr_req"]
        self.emit(f"    wire unused_inputs = ^{{{', '.join(items)}}};")
        self.emit("")

    def write(self) -> str:
        self.header()
        self.ports()
        self.checks()
        self.helpers()
        self.decode()
        self.storage()
        self.read_mux()
        self.unused()
        self.emit("endmodule")
        self.emit("")
        self.emit("`default_nettype wire")
        return "\n".join(self.lines) + "\n"


def verilog_modules(top: AddrmapNode, banner: str) -> dict[str, str]:
    """File name -> Verilog text of every part's register block."""
    return {
        f"latmon_regs_{part}.v": ModuleWriter(part, regs, banner).write()
        for part, regs in parts(top).items()
    }
