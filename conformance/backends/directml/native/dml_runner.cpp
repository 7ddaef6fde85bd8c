// dml_runner: runs DML_SLICE, DML_SLICE1, DML_PADDING, DML_SPLIT, DML_PADDING1, DML_JOIN and the data-movement family
// (issue 31: ELEMENT_WISE_IDENTITY, CAST, TILE, SPACE_TO_DEPTH(1), DEPTH_TO_SPACE(1), REVERSE_SUBSEQUENCES, SLICE_GRAD;
// issue 32: FILL_VALUE_CONSTANT, FILL_VALUE_SEQUENCE, DIAGONAL_MATRIX, DIAGONAL_MATRIX1, GATHER, GATHER_ELEMENTS, GATHER_ND(1), ONE_HOT)
// exactly as a case describes them.
//
// One long-lived process per backend instance: one D3D12 device, one shader-visible descriptor heap
// (creating one can cost seconds: vkd3d on lavapipe, unless VKD3D_CONFIG=virtual_heaps; so it is made once, large,
// and reused), one IDMLDevice per minimum feature level asked for.  Cases arrive on stdin and results leave on stdout as frames (dml_common.h).
//
// Requests: {"op":"info"}, {"op":"run", ...} with the input tensor's bytes as payload, {"op":"batch", "cases":
// [...]} with every case's inputs, {"op":"quit"}.  A response to "run" carries the outputs' bytes, one after
// another, lengths in its header; a batch is answered case by case (Runner::handle).
// Every HRESULT is checked and a failure names the call that returned it.  The program never judges a
// result: it reports what DirectML accepted, refused and wrote; the Python side compares.
//
// Built by conformance/backends/directml/build.py with mingw-w64 (Linux, run under Wine) or MSVC,
// clang-cl or mingw on Windows, against Microsoft's DirectML.h and the D3D12 headers.

#include "dml_common.h"

namespace {

const std::map<std::string, DML_PADDING_MODE>& padding_modes() {
    static const std::map<std::string, DML_PADDING_MODE> m = {
        {"CONSTANT", DML_PADDING_MODE_CONSTANT},
        {"EDGE", DML_PADDING_MODE_EDGE},
        {"REFLECTION", DML_PADDING_MODE_REFLECTION},
        {"SYMMETRIC", DML_PADDING_MODE_SYMMETRIC},
        {"WRAP", DML_PADDING_MODE_WRAP},  // DML_TARGET_VERSION 0x6400: feature level 6.4
    };
    return m;
}

// ------------------------------------------------------------------------------------------------
// The case as DirectML structs.
// ------------------------------------------------------------------------------------------------

std::vector<UINT> uints(const Json& j, const std::string& what) {
    if (j.kind != Json::Array) throw ProtocolError{what + " is not an array"};
    std::vector<UINT> out;
    for (size_t i = 0; i < j.items.size(); ++i) {
        int64_t v = j.items[i].integer(what);
        if (v < 0 || v > 0xFFFFFFFFll) throw ProtocolError{what + " holds a value outside UINT"};
        out.push_back(static_cast<UINT>(v));
    }
    return out;
}

std::vector<INT> ints(const Json& j, const std::string& what) {
    if (j.kind != Json::Array) throw ProtocolError{what + " is not an array"};
    std::vector<INT> out;
    for (size_t i = 0; i < j.items.size(); ++i) {
        int64_t v = j.items[i].integer(what);
        if (v < INT32_MIN || v > INT32_MAX) throw ProtocolError{what + " holds a value outside INT"};
        out.push_back(static_cast<INT>(v));
    }
    return out;
}

// One DML_BUFFER_TENSOR_DESC with the arrays it points to (kept alive beside it).
struct Tensor {
    std::vector<UINT> sizes;
    std::vector<UINT> strides;
    bool has_strides = false;
    DML_BUFFER_TENSOR_DESC buffer{};
    DML_TENSOR_DESC desc{};
    uint64_t offset = 0;  // where the tensor lives in the shared default buffer
    uint64_t region = 0;  // bytes reserved for it there (total size, then guard bytes)

    void init(const Json& j, const std::string& what) {
        sizes = uints(j.at("sizes"), what + ".sizes");
        if (j.has("strides")) {
            strides = uints(j.at("strides"), what + ".strides");
            has_strides = true;
        }
        buffer.DataType = lookup(data_types(), j.at("data_type").str(what + ".data_type"), "data type");
        buffer.Flags = static_cast<DML_TENSOR_FLAGS>(j.has("flags") ? j.at("flags").integer(what + ".flags") : 0);
        buffer.DimensionCount = static_cast<UINT>(sizes.size());
        buffer.Sizes = sizes.data();
        buffer.Strides = has_strides ? strides.data() : nullptr;
        int64_t total = j.at("total_size").integer(what + ".total_size");
        if (total < 0) throw ProtocolError{what + ".total_size is negative"};
        buffer.TotalTensorSizeInBytes = static_cast<UINT64>(total);
        int64_t align = j.has("alignment") ? j.at("alignment").integer(what + ".alignment") : 0;
        if (align < 0 || align > UINT32_MAX) throw ProtocolError{what + ".alignment is outside UINT"};
        buffer.GuaranteedBaseOffsetAlignment = static_cast<UINT>(align);
        desc.Type = DML_TENSOR_TYPE_BUFFER;
        desc.Desc = &buffer;
    }
};

// DML_DEPTH_SPACE_ORDER by its name (issue 31, the depth-space family).
static DML_DEPTH_SPACE_ORDER depth_space_order(const Json& v) {
    std::string name = v.str("order");
    if (name == "DEPTH_COLUMN_ROW") return DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
    if (name == "COLUMN_ROW_DEPTH") return DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH;
    throw ProtocolError{"unknown depth-space order '" + name + "'"};
}

// The operator's struct and everything its pointers reach.
struct OperatorDesc {
    std::string name;
    std::vector<Tensor> inputs;  // one, but for JOIN, REVERSE_SUBSEQUENCES and the index operators (GATHER*, SCATTER*, ONE_HOT)
    std::vector<DML_TENSOR_DESC> input_descs;
    std::vector<Tensor> outputs;
    std::vector<DML_TENSOR_DESC> output_descs;
    std::vector<UINT> a, b, c;  // the per-dimension arrays, in the struct's order
    std::vector<INT> strides1;
    DML_SLICE_OPERATOR_DESC slice{};
    DML_SLICE1_OPERATOR_DESC slice1{};
    DML_PADDING_OPERATOR_DESC padding{};
    DML_PADDING1_OPERATOR_DESC padding1{};
    DML_SPLIT_OPERATOR_DESC split{};
    DML_JOIN_OPERATOR_DESC join{};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity{};
    DML_SCALE_BIAS scale_bias{};
    DML_TILE_OPERATOR_DESC tile{};
    // issue 31, the depth-space family
    DML_DEPTH_TO_SPACE_OPERATOR_DESC depth_to_space{};
    DML_DEPTH_TO_SPACE1_OPERATOR_DESC depth_to_space1{};
    DML_SPACE_TO_DEPTH_OPERATOR_DESC space_to_depth{};
    DML_SPACE_TO_DEPTH1_OPERATOR_DESC space_to_depth1{};
    DML_SLICE_GRAD_OPERATOR_DESC slice_grad{};
    DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC reverse_subsequences{};
    DML_SCATTER_OPERATOR_DESC scatter{};
    DML_SCATTER_ND_OPERATOR_DESC scatter_nd{};
    DML_CAST_OPERATOR_DESC cast{};
    // issue 32: no input tensor
    DML_FILL_VALUE_CONSTANT_OPERATOR_DESC fill_value_constant{};
    DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC fill_value_sequence{};
    DML_DIAGONAL_MATRIX_OPERATOR_DESC diagonal_matrix{};
    DML_DIAGONAL_MATRIX1_OPERATOR_DESC diagonal_matrix1{};
    // issue 32
    DML_GATHER_ND_OPERATOR_DESC gather_nd{};
    DML_GATHER_ND1_OPERATOR_DESC gather_nd1{};
    // issue 32
    DML_ONE_HOT_OPERATOR_DESC one_hot{};
    DML_GATHER_OPERATOR_DESC gather{};
    DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements{};
    DML_OPERATOR_DESC op{};

    void init(const Json& req) {
        name = req.at("operator").str("operator");
        const Json& tensors = req.at("tensors");
        const Json& ins = tensors.at("inputs");
        if (ins.kind != Json::Array) throw ProtocolError{"tensors.inputs is not an array"};
        // JOIN may state InputCount 0 with no InputTensors (JOIN.2: DirectML's to refuse); FILL_VALUE_* have no input
        // tensor; every other operator has one.
        bool no_inputs = name == "JOIN" || name == "FILL_VALUE_CONSTANT" || name == "FILL_VALUE_SEQUENCE" ||
                         name == "DIAGONAL_MATRIX" || name == "DIAGONAL_MATRIX1";  // the last: optional
        if (ins.items.empty() && !no_inputs) throw ProtocolError{"tensors.inputs is empty"};
        inputs.resize(ins.items.size());  // sized once: each desc points into its Tensor
        for (size_t i = 0; i < ins.items.size(); ++i) inputs[i].init(ins.items[i], "input_tensors");
        for (auto& t : inputs) input_descs.push_back(t.desc);
        const Json& outs = tensors.at("outputs");
        outputs.resize(outs.items.size());
        for (size_t i = 0; i < outs.items.size(); ++i) outputs[i].init(outs.items[i], "output_tensors");
        for (auto& t : outputs) output_descs.push_back(t.desc);
        const Json& f = req.at("fields");
        UINT dims = f.has("dimension_count") ? static_cast<UINT>(f.at("dimension_count").integer("dimension_count")) : 0;
        if (name == "SLICE") {
            a = uints(f.at("offsets"), "offsets");
            b = uints(f.at("sizes"), "sizes");
            c = uints(f.at("strides"), "strides");
            slice = {&input_descs.at(0), &output_descs.at(0), dims, a.data(), b.data(), c.data()};
            op = {DML_OPERATOR_SLICE, &slice};
        } else if (name == "SLICE1") {
            a = uints(f.at("window_offsets"), "window_offsets");
            b = uints(f.at("window_sizes"), "window_sizes");
            strides1 = ints(f.at("window_strides"), "window_strides");
            slice1 = {&input_descs.at(0), &output_descs.at(0), dims, a.data(), b.data(), strides1.data()};
            op = {DML_OPERATOR_SLICE1, &slice1};
        } else if (name == "PADDING") {
            a = uints(f.at("start_padding"), "start_padding");
            b = uints(f.at("end_padding"), "end_padding");
            // PaddingValue is a FLOAT in the struct; its bits arrive exactly (NaN payloads included).
            uint32_t bits = static_cast<uint32_t>(f.at("padding_value_bits").integer("padding_value_bits"));
            FLOAT value;
            std::memcpy(&value, &bits, sizeof value);
            DML_PADDING_MODE mode = lookup(padding_modes(), f.at("padding_mode").str("padding_mode"), "padding mode");
            padding = {&input_descs.at(0), &output_descs.at(0), mode, value, dims, a.data(), b.data()};
            op = {DML_OPERATOR_PADDING, &padding};
        } else if (name == "PADDING1") {
            a = uints(f.at("start_padding"), "start_padding");
            b = uints(f.at("end_padding"), "end_padding");
            DML_PADDING_MODE mode = lookup(padding_modes(), f.at("padding_mode").str("padding_mode"), "padding mode");
            DML_TENSOR_DATA_TYPE value_type =
                lookup(data_types(), f.at("padding_value_data_type").str("padding_value_data_type"), "data type");
            // DML_SCALAR_UNION: the value's bits in its type's width, little-endian, the rest of the 8 bytes zero.
            uint64_t bits = f.at("padding_value_bits").uint64("padding_value_bits");
            DML_SCALAR_UNION value{};
            std::memcpy(value.Bytes, &bits, sizeof bits);
            padding1 = {&input_descs.at(0), &output_descs.at(0), mode, value_type, value, dims, a.data(), b.data()};
            op = {DML_OPERATOR_PADDING1, &padding1};
        } else if (name == "SPLIT") {
            UINT count = static_cast<UINT>(f.at("output_count").integer("output_count"));
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            split = {&input_descs.at(0), count, output_descs.data(), axis};
            op = {DML_OPERATOR_SPLIT, &split};
        } else if (name == "JOIN") {
            UINT count = static_cast<UINT>(f.at("input_count").integer("input_count"));
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            join = {count, input_descs.data(), &output_descs.at(0), axis};
            op = {DML_OPERATOR_JOIN, &join};
        } else if (name == "ELEMENT_WISE_IDENTITY") {
            // Under test (IDENT.*), and the self-test that the device copies data at all (which sends no fields).
            // ScaleBias: null is the struct's nullptr; else its two FLOATs' bits, exactly (NaN payloads included).
            const DML_SCALE_BIAS* sb = nullptr;
            if (f.has("scale_bias_bits")) {
                std::vector<UINT> bits = uints(f.at("scale_bias_bits"), "scale_bias_bits");
                if (bits.size() != 2) throw ProtocolError{"scale_bias_bits has " + std::to_string(bits.size()) + " numbers, not 2"};
                std::memcpy(&scale_bias.Scale, &bits[0], sizeof scale_bias.Scale);
                std::memcpy(&scale_bias.Bias, &bits[1], sizeof scale_bias.Bias);
                sb = &scale_bias;
            }
            identity = {&input_descs.at(0), &output_descs.at(0), sb};
            op = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identity};
        } else if (name == "TILE") {
            // RepeatsCount as the case states it (TILE.3: DirectML's to refuse one other than the rank).
            UINT count = static_cast<UINT>(f.at("repeats_count").integer("repeats_count"));
            a = uints(f.at("repeats"), "repeats");
            tile = {&input_descs.at(0), &output_descs.at(0), count, a.data()};
            op = {DML_OPERATOR_TILE, &tile};
        } else if (name == "DEPTH_TO_SPACE") {  // issue 31, the depth-space family
            UINT block = static_cast<UINT>(f.at("block_size").integer("block_size"));
            depth_to_space = {&input_descs.at(0), &output_descs.at(0), block};
            op = {DML_OPERATOR_DEPTH_TO_SPACE, &depth_to_space};
        } else if (name == "DEPTH_TO_SPACE1") {
            UINT block = static_cast<UINT>(f.at("block_size").integer("block_size"));
            depth_to_space1 = {&input_descs.at(0), &output_descs.at(0), block, depth_space_order(f.at("order"))};
            op = {DML_OPERATOR_DEPTH_TO_SPACE1, &depth_to_space1};
        } else if (name == "SPACE_TO_DEPTH") {
            UINT block = static_cast<UINT>(f.at("block_size").integer("block_size"));
            space_to_depth = {&input_descs.at(0), &output_descs.at(0), block};
            op = {DML_OPERATOR_SPACE_TO_DEPTH, &space_to_depth};
        } else if (name == "SPACE_TO_DEPTH1") {
            UINT block = static_cast<UINT>(f.at("block_size").integer("block_size"));
            space_to_depth1 = {&input_descs.at(0), &output_descs.at(0), block, depth_space_order(f.at("order"))};
            op = {DML_OPERATOR_SPACE_TO_DEPTH1, &space_to_depth1};
        } else if (name == "SLICE_GRAD") {
            // InputGradientTensor, OutputGradientTensor; InputWindowStrides is INT in DirectML.h (E-SGRAD-1).
            a = uints(f.at("window_offsets"), "window_offsets");
            b = uints(f.at("window_sizes"), "window_sizes");
            strides1 = ints(f.at("window_strides"), "window_strides");
            slice_grad = {&input_descs.at(0), &output_descs.at(0), dims, a.data(), b.data(), strides1.data()};
            op = {DML_OPERATOR_SLICE_GRAD, &slice_grad};
        } else if (name == "REVERSE_SUBSEQUENCES") {
            // Two inputs: InputTensor, then SequenceLengthsTensor (UINT32/UINT64, not the data's type: REVSEQ.8).
            if (input_descs.size() != 2) throw ProtocolError{"REVERSE_SUBSEQUENCES takes two input tensors"};
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            reverse_subsequences = {&input_descs.at(0), &input_descs.at(1), &output_descs.at(0), axis};
            op = {DML_OPERATOR_REVERSE_SUBSEQUENCES, &reverse_subsequences};
        } else if (name == "SCATTER") {
            // Three inputs: InputTensor, IndicesTensor (INT32/INT64/UINT32/UINT64, not the data's type: SCATTER.9),
            // UpdatesTensor. DML_OPERATOR_SCATTER is DML_OPERATOR_SCATTER_ELEMENTS (one enum value, one struct).
            if (input_descs.size() != 3) throw ProtocolError{"SCATTER takes three input tensors"};
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            scatter = {&input_descs.at(0), &input_descs.at(1), &input_descs.at(2), &output_descs.at(0), axis};
            op = {DML_OPERATOR_SCATTER, &scatter};
        } else if (name == "SCATTER_ND") {
            // Three inputs as SCATTER's; the meaningful dimension counts of the input and of the indices.
            if (input_descs.size() != 3) throw ProtocolError{"SCATTER_ND takes three input tensors"};
            UINT in_dims = static_cast<UINT>(f.at("input_dimension_count").integer("input_dimension_count"));
            UINT ix_dims = static_cast<UINT>(f.at("indices_dimension_count").integer("indices_dimension_count"));
            scatter_nd = {&input_descs.at(0), &input_descs.at(1), &input_descs.at(2), &output_descs.at(0), in_dims,
                          ix_dims};
            op = {DML_OPERATOR_SCATTER_ND, &scatter_nd};
        } else if (name == "CAST") {
            cast = {&input_descs.at(0), &output_descs.at(0)};
            op = {DML_OPERATOR_CAST, &cast};
        } else if (name == "FILL_VALUE_CONSTANT") {  // issue 32: OutputTensor only
            // DML_SCALAR_UNION: the value's bits in its type's width, little-endian, the rest of the 8 bytes zero.
            DML_TENSOR_DATA_TYPE value_type =
                lookup(data_types(), f.at("value_data_type").str("value_data_type"), "data type");
            uint64_t bits = f.at("value_bits").uint64("value_bits");
            DML_SCALAR_UNION value{};
            std::memcpy(value.Bytes, &bits, sizeof bits);
            fill_value_constant = {&output_descs.at(0), value_type, value};
            op = {DML_OPERATOR_FILL_VALUE_CONSTANT, &fill_value_constant};
        } else if (name == "FILL_VALUE_SEQUENCE") {
            DML_TENSOR_DATA_TYPE value_type =
                lookup(data_types(), f.at("value_data_type").str("value_data_type"), "data type");
            uint64_t start_bits = f.at("value_start_bits").uint64("value_start_bits");
            uint64_t delta_bits = f.at("value_delta_bits").uint64("value_delta_bits");
            DML_SCALAR_UNION start{}, delta{};
            std::memcpy(start.Bytes, &start_bits, sizeof start_bits);
            std::memcpy(delta.Bytes, &delta_bits, sizeof delta_bits);
            fill_value_sequence = {&output_descs.at(0), value_type, start, delta};
            op = {DML_OPERATOR_FILL_VALUE_SEQUENCE, &fill_value_sequence};
        } else if (name == "DIAGONAL_MATRIX") {
            // Offset is INT; Value a FLOAT whose bits arrive exactly (NaN payloads included).
            INT offset = static_cast<INT>(f.at("offset").integer("offset"));
            uint32_t bits = static_cast<uint32_t>(f.at("value_bits").integer("value_bits"));
            FLOAT value;
            std::memcpy(&value, &bits, sizeof value);
            diagonal_matrix = {&output_descs.at(0), offset, value};
            op = {DML_OPERATOR_DIAGONAL_MATRIX, &diagonal_matrix};
        } else if (name == "DIAGONAL_MATRIX1") {
            // InputTensor is _Maybenull_: null when the request has no input.
            DML_TENSOR_DATA_TYPE value_type =
                lookup(data_types(), f.at("value_data_type").str("value_data_type"), "data type");
            uint64_t bits = f.at("value_bits").uint64("value_bits");
            DML_SCALAR_UNION value{};
            std::memcpy(value.Bytes, &bits, sizeof bits);
            INT begin = static_cast<INT>(f.at("diagonal_fill_begin").integer("diagonal_fill_begin"));
            INT end = static_cast<INT>(f.at("diagonal_fill_end").integer("diagonal_fill_end"));
            const DML_TENSOR_DESC* input = input_descs.empty() ? nullptr : &input_descs.at(0);
            diagonal_matrix1 = {input, &output_descs.at(0), value_type, value, begin, end};
            op = {DML_OPERATOR_DIAGONAL_MATRIX1, &diagonal_matrix1};
        } else if (name == "GATHER_ND" || name == "GATHER_ND1") {  // issue 32
            // Two inputs: InputTensor, then IndicesTensor (INT64/INT32/UINT64/UINT32, not the data's type: GND.9).
            if (input_descs.size() != 2) throw ProtocolError{name + " takes two input tensors"};
            UINT input_count = static_cast<UINT>(f.at("input_dimension_count").integer("input_dimension_count"));
            UINT indices_count = static_cast<UINT>(f.at("indices_dimension_count").integer("indices_dimension_count"));
            if (name == "GATHER_ND") {
                gather_nd = {&input_descs.at(0), &input_descs.at(1), &output_descs.at(0), input_count, indices_count};
                op = {DML_OPERATOR_GATHER_ND, &gather_nd};
            } else {
                UINT batches = static_cast<UINT>(f.at("batch_dimension_count").integer("batch_dimension_count"));
                gather_nd1 = {&input_descs.at(0), &input_descs.at(1), &output_descs.at(0), input_count, indices_count, batches};
                op = {DML_OPERATOR_GATHER_ND1, &gather_nd1};
            }
        } else if (name == "ONE_HOT") {
            // Two inputs: IndicesTensor (its own index type: ONEHOT.10), then ValuesTensor (the output's type).
            if (input_descs.size() != 2) throw ProtocolError{"ONE_HOT takes two input tensors"};
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            one_hot = {&input_descs.at(0), &input_descs.at(1), &output_descs.at(0), axis};
            op = {DML_OPERATOR_ONE_HOT, &one_hot};
        } else if (name == "GATHER") {
            // Two inputs: InputTensor, then IndicesTensor (UINT32, INT32, UINT64, INT64: not the data's type, GATHER.9).
            if (input_descs.size() != 2) throw ProtocolError{"GATHER takes two input tensors"};
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            UINT index_dimensions = static_cast<UINT>(f.at("index_dimensions").integer("index_dimensions"));
            gather = {&input_descs.at(0), &input_descs.at(1), &output_descs.at(0), axis, index_dimensions};
            op = {DML_OPERATOR_GATHER, &gather};
        } else if (name == "GATHER_ELEMENTS") {
            // Two inputs: InputTensor, then IndicesTensor (UINT32, INT32, UINT64, INT64: GELEM.8).
            if (input_descs.size() != 2) throw ProtocolError{"GATHER_ELEMENTS takes two input tensors"};
            UINT axis = static_cast<UINT>(f.at("axis").integer("axis"));
            gather_elements = {&input_descs.at(0), &input_descs.at(1), &output_descs.at(0), axis};
            op = {DML_OPERATOR_GATHER_ELEMENTS, &gather_elements};
        } else {
            throw ProtocolError{"unknown operator '" + name + "'"};
        }
    }
};

// A DML graph (IDMLDevice1::CompileGraph): operator nodes, each an OperatorDesc, and the edges between the
// graph's inputs, the nodes and the graph's outputs, as the request states them.
struct Graph {
    std::vector<std::unique_ptr<OperatorDesc>> nodes;  // pointers: each desc points into itself
    std::vector<Tensor> inputs, outputs;  // the graph's, bound like an operator's
    std::vector<DML_INPUT_GRAPH_EDGE_DESC> input_edges;
    std::vector<DML_OUTPUT_GRAPH_EDGE_DESC> output_edges;
    std::vector<DML_INTERMEDIATE_GRAPH_EDGE_DESC> intermediate_edges;

    static std::vector<std::vector<UINT>> edges(const Json& g, const char* key, size_t width) {
        std::vector<std::vector<UINT>> out;
        if (!g.has(key)) return out;
        const Json& list = g.at(key);
        if (list.kind != Json::Array) throw ProtocolError{std::string("graph.") + key + " is not an array"};
        for (const auto& e : list.items) {
            out.push_back(uints(e, std::string("graph.") + key));
            if (out.back().size() != width)
                throw ProtocolError{std::string("graph.") + key + " entries have " + std::to_string(width) + " numbers"};
        }
        return out;
    }

    void init(const Json& g) {
        const Json& ns = g.at("nodes");
        if (ns.kind != Json::Array || ns.items.empty()) throw ProtocolError{"graph.nodes is not a non-empty array"};
        for (const auto& n : ns.items) {
            nodes.emplace_back(new OperatorDesc);
            nodes.back()->init(n);
        }
        const Json& ins = g.at("inputs");
        inputs.resize(ins.items.size());
        for (size_t i = 0; i < ins.items.size(); ++i) inputs[i].init(ins.items[i], "graph.inputs");
        const Json& outs = g.at("outputs");
        outputs.resize(outs.items.size());
        for (size_t i = 0; i < outs.items.size(); ++i) outputs[i].init(outs.items[i], "graph.outputs");
        for (const auto& e : edges(g, "input_edges", 3)) input_edges.push_back({e[0], e[1], e[2], nullptr});
        for (const auto& e : edges(g, "output_edges", 3)) output_edges.push_back({e[0], e[1], e[2], nullptr});
        for (const auto& e : edges(g, "intermediate_edges", 4))
            intermediate_edges.push_back({e[0], e[1], e[2], e[3], nullptr});
    }

    bool uses_input(UINT index) const {
        for (const auto& e : input_edges)
            if (e.GraphInputIndex == index) return true;
        return false;
    }

    // Create each node's operator, then compile the graph.  On a refusal: the call (naming the node) and HRESULT.
    HRESULT compile(IDMLDevice* dml, bool check_only, Com<IDMLCompiledOperator>& compiled, std::string& call) {
        std::vector<Com<IDMLOperator>> ops(nodes.size());
        std::vector<DML_OPERATOR_GRAPH_NODE_DESC> op_nodes(nodes.size());
        std::vector<DML_GRAPH_NODE_DESC> node_descs(nodes.size());
        for (size_t n = 0; n < nodes.size(); ++n) {
            HRESULT hr = dml->CreateOperator(&nodes[n]->op, __uuidof(IDMLOperator), ops[n].put_void());
            if (FAILED(hr)) {
                call = "IDMLDevice::CreateOperator (graph node " + std::to_string(n) + ", " + nodes[n]->name + ")";
                return hr;
            }
            op_nodes[n] = {ops[n].p, nullptr};
            node_descs[n] = {DML_GRAPH_NODE_TYPE_OPERATOR, &op_nodes[n]};
        }
        if (check_only) return S_OK;
        std::vector<DML_GRAPH_EDGE_DESC> in_e, out_e, mid_e;
        for (auto& e : input_edges) in_e.push_back({DML_GRAPH_EDGE_TYPE_INPUT, &e});
        for (auto& e : output_edges) out_e.push_back({DML_GRAPH_EDGE_TYPE_OUTPUT, &e});
        for (auto& e : intermediate_edges) mid_e.push_back({DML_GRAPH_EDGE_TYPE_INTERMEDIATE, &e});
        DML_GRAPH_DESC desc{static_cast<UINT>(inputs.size()),
                            static_cast<UINT>(outputs.size()),
                            static_cast<UINT>(node_descs.size()),
                            node_descs.data(),
                            static_cast<UINT>(in_e.size()),
                            in_e.empty() ? nullptr : in_e.data(),
                            static_cast<UINT>(out_e.size()),
                            out_e.data(),
                            static_cast<UINT>(mid_e.size()),
                            mid_e.empty() ? nullptr : mid_e.data()};
        Com<IDMLDevice1> dml1;
        CHECK(dml->QueryInterface(__uuidof(IDMLDevice1), dml1.put_void()), "IDMLDevice::QueryInterface(IDMLDevice1)");
        HRESULT hr = dml1->CompileGraph(&desc, DML_EXECUTION_FLAG_NONE, __uuidof(IDMLCompiledOperator),
                                        compiled.put_void());
        if (FAILED(hr)) call = "IDMLDevice1::CompileGraph";
        return hr;
    }
};

// ------------------------------------------------------------------------------------------------
// The device and the reusable resources.
// ------------------------------------------------------------------------------------------------

constexpr uint64_t kAlign = DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT;  // 16
constexpr uint64_t kGuard = 256;  // bytes after each output (and before each case's block) that must stay untouched
constexpr unsigned char kPoison = 0xCD;  // what unwritten output bytes hold
// Descriptors in the one shader-visible heap: a batch's cases each take their own range of it.  Creating the heap
// costs seconds under vkd3d whatever its size, so it is made large once (--descriptors N overrides).
constexpr UINT kHeapDescriptors = 16384;
// One submission's buffers at most: a batch larger than this is executed in several submissions (a case larger than
// this alone in its own).
constexpr uint64_t kSubmissionBytes = uint64_t(256) << 20;
constexpr int kMaxThreads = 16;

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

struct Buffer {  // a committed buffer that grows when a case needs more
    Com<ID3D12Resource> resource;
    uint64_t capacity = 0;
};

double now_s() {
    static LARGE_INTEGER freq = [] {
        LARGE_INTEGER f;
        QueryPerformanceFrequency(&f);
        return f;
    }();
    LARGE_INTEGER t;
    QueryPerformanceCounter(&t);
    return static_cast<double>(t.QuadPart) / static_cast<double>(freq.QuadPart);
}

// One case of a request: its operator (or DML graph) created, compiled and bound, and its block in the buffers.
// Jobs never move (each desc points into itself): they are held by pointer.
struct Job {
    size_t index = 0;  // its place in the request's "cases"
    const Json* req = nullptr;
    bool graph = false;
    bool check_only = false;
    IDMLDevice* dml = nullptr;
    DML_FEATURE_LEVEL level = DML_FEATURE_LEVEL_1_0;
    OperatorDesc d;
    Graph g;
    Com<IDMLOperator> op;
    Com<IDMLCompiledOperator> compiled;
    Com<IDMLOperatorInitializer> init;
    DML_BINDING_PROPERTIES init_props{}, exec_props{};
    Com<IDMLBindingTable> init_table, exec_table;
    const unsigned char* input = nullptr;  // its inputs' bytes, one after another, in the request's payload
    uint64_t input_size = 0;
    uint64_t base = 0;  // its block in the submission's buffer: kGuard poison bytes, its inputs, its outputs and guards
    uint64_t persistent_offset = 0;
    UINT descriptor_base = 0;
    double t0 = 0, create_s = 0, compile_s = 0;
    // An answer found on a compiling thread, written once the threads are joined: status, call, HRESULT, message.
    std::string status, call, message;
    HRESULT hr = S_OK;
    bool answered = false;

    std::vector<Tensor>& inputs() { return graph ? g.inputs : d.inputs; }
    std::vector<Tensor>& outputs() { return graph ? g.outputs : d.outputs; }
    UINT descriptors() const { return init_props.RequiredDescriptorCount + exec_props.RequiredDescriptorCount; }
    std::string what() const {  // for a message: "DML_OPERATOR_GATHER (case 3 of the batch)"
        return (graph ? std::string("a DML graph") : "DML_OPERATOR_" + d.name) + " (case " + std::to_string(index) + " of the request)";
    }
    uint64_t footprint() {  // its block's bytes, at most (alignment included)
        uint64_t n = 2 * kGuard;
        for (auto& t : inputs()) n += std::max<uint64_t>(kAlign, t.buffer.GuaranteedBaseOffsetAlignment) + t.buffer.TotalTensorSizeInBytes + 4 + kAlign;
        for (auto& t : outputs()) n += std::max<uint64_t>(kAlign, t.buffer.GuaranteedBaseOffsetAlignment) + t.buffer.TotalTensorSizeInBytes + kGuard + kAlign;
        return n;
    }
};

bool device_lost(HRESULT hr) {
    return hr == DXGI_ERROR_DEVICE_REMOVED || hr == DXGI_ERROR_DEVICE_HUNG || hr == DXGI_ERROR_DEVICE_RESET ||
           hr == DXGI_ERROR_DRIVER_INTERNAL_ERROR;
}

class Runner : public Program {
public:
    Runner(Device& device, UINT descriptors) : dev_(device) {
        ID3D12Device* d3d = dev_.d3d12();
        CHECK(d3d->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, __uuidof(ID3D12CommandAllocator),
                                          allocator_.put_void()),
              "ID3D12Device::CreateCommandAllocator");
        CHECK(d3d->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, allocator_.p, nullptr,
                                     __uuidof(ID3D12GraphicsCommandList), list_.put_void()),
              "ID3D12Device::CreateCommandList");
        CHECK(list_->Close(), "ID3D12GraphicsCommandList::Close");
        CHECK(d3d->CreateFence(0, D3D12_FENCE_FLAG_NONE, __uuidof(ID3D12Fence), fence_.put_void()),
              "ID3D12Device::CreateFence");
        event_ = CreateEventW(nullptr, FALSE, FALSE, nullptr);
        if (!event_) throw HrError{HRESULT_FROM_WIN32(GetLastError()), "CreateEventW"};
        // Creating a descriptor heap costs seconds and ~1.5 GB under vkd3d: one, made once, reused.
        make_heap(descriptors);
    }

    // How long start-up took, by phase (wmain measures them): reported by "info".
    std::string startup;

    std::string info() override {
        JsonWriter w;
        dev_.describe(w);
        w.u64("descriptor_heap_size", heap_size_);
        if (!startup.empty()) w.raw("startup_s", startup);
        return w.done();
    }

    // "run": one case, answered with one frame.  "batch": {"cases": [run requests, each with its "input_bytes"],
    // "threads": N}, the payload their inputs one after another; answered with one frame per case, each naming its
    // "index", as soon as its answer is known (refusals first, results after the submission's one fence wait),
    // then {"status": "batch_done"}.  A failure of the whole batch (the device removed, a buffer that cannot be
    // made) ends it with a frame that names no index: the cases without an answer have none.
    void handle(const std::string& op, const Json& req, const std::vector<unsigned char>& payload) override {
        if (op == "run") return execute_jobs(req, nullptr, payload, 1, false);
        if (op == "batch") {
            const Json& cases = req.at("cases");
            if (cases.kind != Json::Array) throw ProtocolError{"cases is not an array"};
            int threads = req.has("threads") ? static_cast<int>(req.at("threads").integer("threads")) : 1;
            return execute_jobs(req, &cases, payload, std::max(1, std::min(threads, kMaxThreads)), true);
        }
        throw ProtocolError{"unknown op '" + op + "'"};
    }

    std::string removed_reason() override { return dev_.removed_reason(); }

private:
    bool batch_ = false;  // answers name their case's index
    bool holding_ = false;  // answers wait in held_ for the heap check that ends the create phase
    std::vector<std::string> held_;

    void release_held(size_t cases) {
        if (holding_) check_heap_for([&] { return "creating the request's " + std::to_string(cases) + " operators"; });
        holding_ = false;
        for (const auto& frame : held_) write_frame(frame);
        held_.clear();
    }

    // Create every case's operator (refusals answered at once), compile them (on `threads` threads: IDMLDevice
    // is free-threaded), then execute them in as few submissions as the heap and kSubmissionBytes allow: every
    // initialisation and dispatch of a submission in one command list, UAV barriers between them, one fence wait.
    void execute_jobs(const Json& req, const Json* cases, const std::vector<unsigned char>& payload, int threads,
                      bool batch) {
        batch_ = batch;
        double t_start = now_s();
        std::vector<std::unique_ptr<Job>> jobs;
        size_t count = cases ? cases->items.size() : 1;
        uint64_t from = 0;
        for (size_t i = 0; i < count; ++i) {
            jobs.emplace_back(new Job);
            Job& j = *jobs.back();
            j.index = i;
            j.req = cases ? &cases->items[i] : &req;
            if (cases) {  // where its inputs are in the payload: found before anything of it is parsed
                int64_t n = j.req->at("input_bytes").integer("input_bytes");
                if (n < 0 || static_cast<uint64_t>(n) > payload.size() - from)
                    throw ProtocolError{"case " + std::to_string(i) + ": input_bytes runs past the payload"};
                j.input = payload.data() + from;
                j.input_size = static_cast<uint64_t>(n);
                from += static_cast<uint64_t>(n);
            } else {
                j.input = payload.data();
                j.input_size = payload.size();
            }
        }
        if (cases && from != payload.size())
            throw ProtocolError{"the cases' input_bytes add up to " + std::to_string(from) + ", the payload has " +
                                std::to_string(payload.size())};
        // A batch's refusals wait for the heap check after the last CreateOperator: no answer leaves from a heap
        // that a case before it may have damaged.
        holding_ = jobs.size() > 1;
        try {
            for (auto& j : jobs) guarded(*j, [&] { create(*j); });
        } catch (...) {
            release_held(jobs.size());
            throw;
        }
        release_held(jobs.size());
        double t_created = now_s();

        std::vector<Job*> pending;
        for (auto& j : jobs)
            if (!j->answered) pending.push_back(j.get());
        compile_all(pending, threads);
        double t_compiled = now_s();
        std::vector<Job*> ready;
        for (Job* j : pending) {
            if (!j->status.empty()) {
                answer_failure(*j);
                continue;
            }
            ready.push_back(j);
        }
        size_t k = 0, submissions = 0;
        double execute_s = 0;
        while (k < ready.size()) {
            std::vector<Job*> chunk;
            UINT descriptors = 0;
            uint64_t bytes = 0;
            for (; k < ready.size(); ++k) {
                Job* j = ready[k];
                if (!chunk.empty() && (descriptors + j->descriptors() > heap_size_ || bytes + j->footprint() > kSubmissionBytes))
                    break;
                chunk.push_back(j);
                descriptors += j->descriptors();
                bytes += j->footprint();
            }
            execute_s += submit(chunk, submissions++);
        }
        if (batch)
            write_frame(JsonWriter()
                            .str("status", "batch_done")
                            .u64("cases", count)
                            .u64("submissions", submissions)
                            .u64("threads", static_cast<uint64_t>(threads))
                            .num("create_s", t_created - t_start)
                            .num("compile_s", t_compiled - t_created)
                            .num("execute_s", execute_s)
                            .num("total_s", now_s() - t_start)
                            .done());
    }

    // Run `step` for one case; a protocol error or a failing call becomes that case's answer.  In a batch, a device
    // removed ends the batch (rethrown: the frame without an index), after this case's own answer.
    template <typename F>
    void guarded(Job& j, F step) {
        try {
            step();
        } catch (const ProtocolError& e) {
            if (j.answered) throw;
            j.status = "protocol_error";
            j.call.clear();
            j.hr = S_OK;
            j.message = e.message;
            answer_failure(j);
        } catch (const HrError& e) {
            if (j.answered) throw;  // the batch ends after this case's own answer
            j.status = "failed";
            j.call = e.call;
            j.hr = e.hr;
            answer_failure(j);
        }
    }

    JsonWriter answer(const Job& j) {
        JsonWriter w;
        if (batch_) w.u64("index", j.index);
        return w;
    }

    // A refusal, an acceptance (check_only) or a failure found for one case: its one frame.
    void answer_failure(Job& j) {
        j.answered = true;
        JsonWriter w = answer(j);
        w.str("status", j.status);
        if (j.status == "refused") {
            w.str("call", j.call).str("hresult", hex32(static_cast<uint32_t>(j.hr))).num("create_s", j.create_s);
        } else if (j.status == "accepted") {
            w.num("create_s", j.create_s);
        } else {  // as serve() reports a failing call: the call, its HRESULT, the device's removed reason
            w.str("call", j.call);
            if (j.hr) w.str("hresult", hex32(static_cast<uint32_t>(j.hr)));
            std::string message = j.status == "failed" ? "device removed reason: " + removed_reason() : j.message;
            if (!message.empty()) w.str("message", message);
        }
        if (holding_)
            held_.push_back(w.done());
        else
            write_frame(w.done());
        if (batch_ && j.status == "failed" && (device_lost(j.hr) || FAILED(dev_.d3d12()->GetDeviceRemovedReason())))
            throw HrError{j.hr, j.call + " (the device is removed: the batch ends)"};
    }

    // Parse the case and create its operator (a graph is created and compiled together, in compile()).
    void create(Job& j) {
        const Json& req = *j.req;
        j.level = lookup(feature_levels(), req.at("min_feature_level").str("min_feature_level"), "feature level");
        j.dml = dev_.dml_device(j.level);
        j.check_only = req.has("check_only") && req.at("check_only").b;
        j.graph = req.has("graph");
        j.t0 = now_s();
        if (j.graph) {
            j.g.init(req.at("graph"));
        } else {
            j.d.init(req);
            HRESULT hr = j.dml->CreateOperator(&j.d.op, __uuidof(IDMLOperator), j.op.put_void());
            j.create_s = now_s() - j.t0;
            if (!holding_) check_heap_for([&] { return "IDMLDevice::CreateOperator of " + j.what(); });
            if (FAILED(hr)) {
                j.status = "refused";
                j.call = "IDMLDevice::CreateOperator";
                j.hr = hr;
                return answer_failure(j);
            }
            if (j.check_only) {
                j.status = "accepted";
                return answer_failure(j);
            }
        }
        if (j.check_only) return;  // a graph's nodes are created in compile()
        // The payload holds the inputs one after another, each TotalTensorSizeInBytes long.
        uint64_t expected_bytes = 0;
        for (const auto& t : j.inputs()) expected_bytes += t.buffer.TotalTensorSizeInBytes;
        if (j.input_size != expected_bytes)
            throw ProtocolError{"input payload has " + std::to_string(j.input_size) + " bytes, the inputs' " +
                                "total_size values add up to " + std::to_string(expected_bytes)};
    }

    // Compile one case and create its initializer.  Runs on a compiling thread: touches only its job and the
    // (free-threaded) DirectML device; what it finds is answered after the threads are joined.  `check_each`:
    // validate the heap after it (a request of one case); a batch's is validated once, after all of them.
    static void compile(Job& j, bool check_each) {
        try {
            double t1 = now_s();
            if (j.graph) {
                std::string call;
                HRESULT hr = j.g.compile(j.dml, j.check_only, j.compiled, call);
                t1 = now_s();
                j.create_s = t1 - j.t0;
                if (FAILED(hr)) {
                    j.status = "refused";
                    j.call = call;
                    j.hr = hr;
                    return;
                }
                if (j.check_only) {
                    j.status = "accepted";
                    return;
                }
            } else {
                HRESULT hr = j.dml->CompileOperator(j.op.p, DML_EXECUTION_FLAG_NONE, __uuidof(IDMLCompiledOperator),
                                                    j.compiled.put_void());
                if (FAILED(hr)) throw HrError{hr, "IDMLDevice::CompileOperator"};
            }
            IDMLCompiledOperator* ops[] = {j.compiled.p};
            CHECK(j.dml->CreateOperatorInitializer(1, ops, __uuidof(IDMLOperatorInitializer), j.init.put_void()),
                  "IDMLDevice::CreateOperatorInitializer");
            j.init_props = binding_properties(j.init.p);
            j.exec_props = binding_properties(j.compiled.p);
            j.compile_s = now_s() - t1;
            if (check_each)
                check_heap_for([&] {
                    return (j.graph ? "IDMLDevice1::CompileGraph of " : "IDMLDevice::CompileOperator of ") + j.what();
                });
        } catch (const HrError& e) {
            j.status = "failed";
            j.call = e.call;
            j.hr = e.hr;
        } catch (const ProtocolError& e) {
            j.status = "protocol_error";
            j.message = e.message;
        } catch (const std::bad_alloc&) {
            j.status = "failed";
            j.call = "operator new";
            j.hr = E_OUTOFMEMORY;
        }
    }

    struct CompileWork {
        std::vector<Job*>* jobs;
        volatile LONG next;
        bool check_each;
    };

    static DWORD WINAPI compile_thread(void* arg) {
        auto* work = static_cast<CompileWork*>(arg);
        for (;;) {
            LONG i = InterlockedIncrement(&work->next) - 1;
            if (i >= static_cast<LONG>(work->jobs->size())) return 0;
            compile(*(*work->jobs)[static_cast<size_t>(i)], work->check_each);
        }
    }

    void compile_all(std::vector<Job*>& jobs, int threads) {
        CompileWork work{&jobs, 0, jobs.size() == 1};
        std::vector<HANDLE> handles;
        int extra = std::min<int>(threads, static_cast<int>(jobs.size())) - 1;
        for (int t = 0; t < extra; ++t) {
            HANDLE h = CreateThread(nullptr, 0, compile_thread, &work, 0, nullptr);
            if (h) handles.push_back(h);  // a thread that cannot start leaves its share to the others
        }
        compile_thread(&work);
        if (!handles.empty()) WaitForMultipleObjects(static_cast<DWORD>(handles.size()), handles.data(), TRUE, INFINITE);
        for (HANDLE h : handles) CloseHandle(h);
        if (!work.check_each)
            check_heap_for([&] { return "compiling the request's " + std::to_string(jobs.size()) + " operators or graphs"; });
    }

    // One submission: lay the cases out in one default buffer (each case's block: kGuard poison bytes, its inputs,
    // its outputs each followed by kGuard guard bytes), upload once, record every case's initialisation and dispatch
    // with UAV barriers between them, execute, wait once, read back once, answer each case.  Returns the seconds
    // from layout to the end of the fence wait.
    double submit(std::vector<Job*>& chunk, size_t submission) {
        double t2 = now_s();
        uint64_t at = 0, persistent = 0, temp_size = 0;
        UINT descriptors = 0;
        for (Job* j : chunk) {
            j->base = at = align_up(at, kAlign);
            at += kGuard;
            for (auto& t : j->inputs()) {
                t.offset = at = align_up(at, std::max<uint64_t>(kAlign, t.buffer.GuaranteedBaseOffsetAlignment));
                t.region = align_up(std::max<uint64_t>(t.buffer.TotalTensorSizeInBytes, 4), kAlign);
                at += t.region;
            }
            for (auto& t : j->outputs()) {
                t.offset = at = align_up(at, std::max<uint64_t>(kAlign, t.buffer.GuaranteedBaseOffsetAlignment));
                t.region = align_up(t.buffer.TotalTensorSizeInBytes + kGuard, kAlign);
                at += t.region;
            }
            if (j->exec_props.PersistentResourceSize) {
                j->persistent_offset = persistent = align_up(persistent, DML_PERSISTENT_BUFFER_ALIGNMENT);
                persistent += j->exec_props.PersistentResourceSize;
            }
            temp_size = std::max({temp_size, j->init_props.TemporaryResourceSize, j->exec_props.TemporaryResourceSize});
            j->descriptor_base = descriptors;
            descriptors += j->descriptors();
        }
        const uint64_t used = at;
        grow(default_, used, D3D12_HEAP_TYPE_DEFAULT, "default");
        grow(upload_, used, D3D12_HEAP_TYPE_UPLOAD, "upload");
        grow(readback_, used, D3D12_HEAP_TYPE_READBACK, "readback");
        if (temp_size) grow(temporary_, temp_size, D3D12_HEAP_TYPE_DEFAULT, "temporary");
        if (persistent) grow(persistent_, persistent, D3D12_HEAP_TYPE_DEFAULT, "persistent");
        if (descriptors > heap_size_) make_heap(std::max(descriptors, heap_size_ * 2));  // a case larger than the heap

        // Upload: poison everywhere (every gap, output region and guard), then each input's bytes at its offset.
        unsigned char* mapped = nullptr;
        D3D12_RANGE none{0, 0};
        CHECK(upload_.resource->Map(0, &none, reinterpret_cast<void**>(&mapped)), "ID3D12Resource::Map(upload)");
        std::memset(mapped, kPoison, used);
        for (Job* j : chunk) {
            uint64_t from = 0;
            for (const auto& t : j->inputs()) {
                uint64_t n = t.buffer.TotalTensorSizeInBytes;
                if (n) std::memcpy(mapped + t.offset, j->input + from, static_cast<size_t>(n));
                from += n;
            }
        }
        upload_.resource->Unmap(0, nullptr);

        std::vector<Job*> bound;
        for (Job* j : chunk) {
            guarded(*j, [&] { bind(*j, temp_size); });
            if (!j->answered) bound.push_back(j);
        }

        // Record: upload -> UAV -> (initialise, dispatch) per case -> copy to readback.
        CHECK(allocator_->Reset(), "ID3D12CommandAllocator::Reset");
        CHECK(list_->Reset(allocator_.p, nullptr), "ID3D12GraphicsCommandList::Reset");
        ID3D12DescriptorHeap* heaps[] = {heap_.p};
        list_->SetDescriptorHeaps(1, heaps);
        transition(default_.resource.p, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST);
        copy(default_.resource.p, upload_.resource.p, used);
        std::vector<ID3D12Resource*> uav = {default_.resource.p};
        if (temp_size) uav.push_back(temporary_.resource.p);
        if (persistent) uav.push_back(persistent_.resource.p);
        transition(default_.resource.p, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        for (size_t i = 1; i < uav.size(); ++i)
            transition(uav[i], D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
        for (Job* j : bound) {
            IDMLCommandRecorder* rec = recorder(j->level);
            rec->RecordDispatch(list_.p, j->init.p, j->init_table.p);
            uav_barrier();
            rec->RecordDispatch(list_.p, j->compiled.p, j->exec_table.p);
            uav_barrier();
        }
        transition(default_.resource.p, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        for (size_t i = 1; i < uav.size(); ++i)
            transition(uav[i], D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COMMON);
        copy(readback_.resource.p, default_.resource.p, used);
        transition(default_.resource.p, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COMMON);
        CHECK(list_->Close(), "ID3D12GraphicsCommandList::Close");
        ID3D12CommandList* lists[] = {list_.p};
        dev_.queue()->ExecuteCommandLists(1, lists);
        wait_idle();
        check_heap_for([&] {
            return "recording and executing a submission of " + std::to_string(bound.size()) + " case(s), the first " +
                   (bound.empty() ? std::string("none") : bound.front()->what());
        });
        double t3 = now_s();
        double share = bound.empty() ? 0.0 : (t3 - t2) / static_cast<double>(bound.size());

        // Read back once; answer each case: its outputs with their guards, and whether its block stayed its own.
        D3D12_RANGE all{0, static_cast<SIZE_T>(used)};
        CHECK(readback_.resource->Map(0, &all, reinterpret_cast<void**>(&mapped)), "ID3D12Resource::Map(readback)");
        for (Job* j : bound) answer_outputs(*j, mapped, share, bound.size(), submission);
        readback_.resource->Unmap(0, &none);
        for (Job* j : bound) {  // what the GPU has finished with
            j->init_table.reset();
            j->exec_table.reset();
        }
        return t3 - t2;
    }

    // The case's binding tables, in its own range of the heap: the initializer's descriptors first, the operator's after.
    void bind(Job& j, uint64_t temp_size) {
        IDMLDevice* dml = j.dml;
        D3D12_CPU_DESCRIPTOR_HANDLE cpu = heap_->GetCPUDescriptorHandleForHeapStart();
        D3D12_GPU_DESCRIPTOR_HANDLE gpu = heap_->GetGPUDescriptorHandleForHeapStart();
        UINT step = dev_.d3d12()->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        cpu.ptr += static_cast<SIZE_T>(step) * j.descriptor_base;
        gpu.ptr += static_cast<UINT64>(step) * j.descriptor_base;
        DML_BINDING_TABLE_DESC init_table_desc{j.init.p, cpu, gpu, j.init_props.RequiredDescriptorCount};
        CHECK(dml->CreateBindingTable(&init_table_desc, __uuidof(IDMLBindingTable), j.init_table.put_void()),
              "IDMLDevice::CreateBindingTable(initializer)");
        D3D12_CPU_DESCRIPTOR_HANDLE cpu2{cpu.ptr + static_cast<SIZE_T>(step) * j.init_props.RequiredDescriptorCount};
        D3D12_GPU_DESCRIPTOR_HANDLE gpu2{gpu.ptr + static_cast<UINT64>(step) * j.init_props.RequiredDescriptorCount};
        DML_BINDING_TABLE_DESC exec_table_desc{j.compiled.p, cpu2, gpu2, j.exec_props.RequiredDescriptorCount};
        CHECK(dml->CreateBindingTable(&exec_table_desc, __uuidof(IDMLBindingTable), j.exec_table.put_void()),
              "IDMLDevice::CreateBindingTable(operator)");

        DML_BUFFER_BINDING temp_binding{temporary_.resource.p, 0, temp_size};
        DML_BINDING_DESC temp_desc{DML_BINDING_TYPE_BUFFER, &temp_binding};
        DML_BUFFER_BINDING persistent_binding{persistent_.resource.p, j.persistent_offset, j.exec_props.PersistentResourceSize};
        DML_BINDING_DESC persistent_desc{DML_BINDING_TYPE_BUFFER, &persistent_binding};
        std::vector<Tensor>& inputs = j.inputs();
        std::vector<DML_BUFFER_BINDING> in_bindings, owned_bindings;
        std::vector<DML_BINDING_DESC> in_descs;
        bool any_owned = false;
        in_bindings.reserve(inputs.size());
        for (const auto& t : inputs) {
            bool owned = (t.buffer.Flags & DML_TENSOR_FLAG_OWNED_BY_DML) != 0;
            any_owned = any_owned || owned;
            in_bindings.push_back({default_.resource.p, t.offset, t.buffer.TotalTensorSizeInBytes});
            // An OWNED_BY_DML input is given to the initializer, not to the dispatch.
            owned_bindings.push_back(owned ? in_bindings.back() : DML_BUFFER_BINDING{nullptr, 0, 0});
        }
        for (size_t i = 0; i < inputs.size(); ++i) {
            bool owned = owned_bindings[i].Buffer != nullptr;
            // A graph input no edge uses is bound to nothing (GRAPH.3: nothing reads it).
            bool unused = j.graph && !j.g.uses_input(static_cast<UINT>(i));
            bool none = owned || unused;
            in_descs.push_back({none ? DML_BINDING_TYPE_NONE : DML_BINDING_TYPE_BUFFER, none ? nullptr : &in_bindings[i]});
        }
        DML_BUFFER_ARRAY_BINDING owned_array{static_cast<UINT>(owned_bindings.size()), owned_bindings.data()};
        DML_BINDING_DESC owned_desc{DML_BINDING_TYPE_BUFFER_ARRAY, &owned_array};
        if (any_owned) j.init_table->BindInputs(1, &owned_desc);
        if (j.init_props.TemporaryResourceSize) j.init_table->BindTemporaryResource(&temp_desc);
        if (j.exec_props.PersistentResourceSize) j.init_table->BindOutputs(1, &persistent_desc);
        j.exec_table->BindInputs(static_cast<UINT>(in_descs.size()), in_descs.data());
        std::vector<DML_BUFFER_BINDING> out_bindings;
        out_bindings.reserve(j.outputs().size());
        for (const auto& t : j.outputs())
            out_bindings.push_back({default_.resource.p, t.offset, t.buffer.TotalTensorSizeInBytes});
        std::vector<DML_BINDING_DESC> out_descs;
        for (auto& b : out_bindings) out_descs.push_back({DML_BINDING_TYPE_BUFFER, &b});
        j.exec_table->BindOutputs(static_cast<UINT>(out_descs.size()), out_descs.data());
        if (j.exec_props.TemporaryResourceSize) j.exec_table->BindTemporaryResource(&temp_desc);
        if (j.exec_props.PersistentResourceSize) j.exec_table->BindPersistentResource(&persistent_desc);
    }

    // One case's answer from the mapped readback buffer: its outputs' bytes and guards, the first guard byte written
    // (or -1) per output, and "clobbered" when a byte of its block no operator may write (the poison before its
    // inputs, its inputs themselves) changed: in a batch another case may have written there.  In a batch it also
    // names its submission and how many cases that submission executed.
    void answer_outputs(Job& j, const unsigned char* mapped, double execute_share, size_t submitted, size_t submission) {
        double t3 = now_s();
        std::string sizes, guards;
        std::vector<std::pair<const void*, size_t>> payload;
        for (const auto& t : j.outputs()) {
            uint64_t n = t.buffer.TotalTensorSizeInBytes;
            // The tensor's bytes and the guard after them: the suite judges every one.
            payload.emplace_back(mapped + t.offset, static_cast<size_t>(n + kGuard));
            sizes += (sizes.empty() ? "" : ",") + std::to_string(n + kGuard);
            // The first byte after the tensor's TotalTensorSizeInBytes that was written, or -1.
            int64_t touched = -1;
            for (uint64_t k = n; k < t.region; ++k)
                if (mapped[t.offset + k] != kPoison) {
                    touched = static_cast<int64_t>(k);
                    break;
                }
            guards += (guards.empty() ? "" : ",") + std::to_string(touched);
        }
        bool clobbered = false;
        for (uint64_t k = j.base; k < j.base + kGuard && !clobbered; ++k) clobbered = mapped[k] != kPoison;
        uint64_t from = 0;
        for (const auto& t : j.inputs()) {
            uint64_t n = t.buffer.TotalTensorSizeInBytes;
            clobbered = clobbered || (n && std::memcmp(mapped + t.offset, j.input + from, static_cast<size_t>(n)) != 0);
            from += n;
        }
        j.answered = true;
        JsonWriter w = answer(j);
        w.str("status", "ok")
            .raw("output_bytes", "[" + sizes + "]")
            .raw("guard_written_at", "[" + guards + "]")
            .u64("guard_bytes", kGuard)
            .u64("descriptors", j.descriptors())
            .u64("temporary_bytes", std::max(j.init_props.TemporaryResourceSize, j.exec_props.TemporaryResourceSize))
            .u64("persistent_bytes", j.exec_props.PersistentResourceSize)
            .num("create_s", j.create_s)
            .num("compile_s", j.compile_s)
            .num("execute_s", execute_share)
            .num("readback_s", now_s() - t3);
        if (batch_) w.u64("submission", submission).u64("submitted_with", submitted);
        if (clobbered) w.boolean("clobbered", true);
        write_frame(w.done(), payload);
    }

    Device& dev_;
    Com<ID3D12CommandAllocator> allocator_;
    Com<ID3D12GraphicsCommandList> list_;
    Com<ID3D12Fence> fence_;
    UINT64 fence_value_ = 0;
    HANDLE event_ = nullptr;
    Com<ID3D12DescriptorHeap> heap_;
    UINT heap_size_ = 0;
    Buffer default_, upload_, readback_, temporary_, persistent_;
    std::map<DML_FEATURE_LEVEL, Com<IDMLCommandRecorder>> recorders_;

    void make_heap(UINT size) {
        D3D12_DESCRIPTOR_HEAP_DESC hd{};
        hd.Type = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;
        hd.NumDescriptors = size;
        hd.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
        heap_.reset();
        CHECK(dev_.d3d12()->CreateDescriptorHeap(&hd, __uuidof(ID3D12DescriptorHeap), heap_.put_void()),
              "ID3D12Device::CreateDescriptorHeap");
        heap_size_ = size;
    }

    IDMLCommandRecorder* recorder(DML_FEATURE_LEVEL level) {
        auto it = recorders_.find(level);
        if (it != recorders_.end()) return it->second.p;
        Com<IDMLCommandRecorder> rec;
        CHECK(dev_.dml_device(level)->CreateCommandRecorder(__uuidof(IDMLCommandRecorder), rec.put_void()),
              "IDMLDevice::CreateCommandRecorder");
        IDMLCommandRecorder* raw = rec.p;
        recorders_[level] = std::move(rec);
        return raw;
    }

    void grow(Buffer& b, uint64_t need, D3D12_HEAP_TYPE type, const char* what) {
        if (b.capacity >= need && b.resource) return;
        uint64_t size = std::max<uint64_t>({need, b.capacity * 2, uint64_t(1) << 20});
        D3D12_HEAP_PROPERTIES hp{};
        hp.Type = type;
        D3D12_RESOURCE_DESC rd{};
        rd.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        rd.Width = size;
        rd.Height = 1;
        rd.DepthOrArraySize = 1;
        rd.MipLevels = 1;
        rd.Format = DXGI_FORMAT_UNKNOWN;
        rd.SampleDesc.Count = 1;
        rd.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        rd.Flags = type == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE;
        D3D12_RESOURCE_STATES state = type == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
                                      : type == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                                                         : D3D12_RESOURCE_STATE_COMMON;
        b.resource.reset();
        b.capacity = 0;
        HRESULT hr = dev_.d3d12()->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &rd, state, nullptr,
                                                      __uuidof(ID3D12Resource), b.resource.put_void());
        if (FAILED(hr)) throw HrError{hr, std::string("ID3D12Device::CreateCommittedResource(") + what + ", " +
                                              std::to_string(size) + " bytes)"};
        b.capacity = size;
    }

    void transition(ID3D12Resource* r, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after) {
        D3D12_RESOURCE_BARRIER b{};
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        b.Transition.pResource = r;
        b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        b.Transition.StateBefore = before;
        b.Transition.StateAfter = after;
        list_->ResourceBarrier(1, &b);
    }

    // Buffer copies in pieces of at most 1 GiB: lavapipe (Mesa 25) crashes in a single copy of 2 GiB or more
    // (a memcpy in its queue thread), and D3D12 gives any split the same result.
    void copy(ID3D12Resource* dst, ID3D12Resource* src, uint64_t bytes) {
        constexpr uint64_t kPiece = uint64_t(1) << 30;
        for (uint64_t at = 0; at < bytes; at += kPiece)
            list_->CopyBufferRegion(dst, at, src, at, std::min(kPiece, bytes - at));
    }

    void uav_barrier() {
        D3D12_RESOURCE_BARRIER b{};
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        b.UAV.pResource = nullptr;
        list_->ResourceBarrier(1, &b);
    }

    void wait_idle() {
        ++fence_value_;
        CHECK(dev_.queue()->Signal(fence_.p, fence_value_), "ID3D12CommandQueue::Signal");
        if (fence_->GetCompletedValue() < fence_value_) {
            CHECK(fence_->SetEventOnCompletion(fence_value_, event_), "ID3D12Fence::SetEventOnCompletion");
            WaitForSingleObject(event_, INFINITE);
        }
        HRESULT removed = dev_.d3d12()->GetDeviceRemovedReason();
        if (FAILED(removed)) throw HrError{removed, "ID3D12Device::GetDeviceRemovedReason (after the dispatch)"};
    }
};

// Seconds since the process was created (Wine's loader included, under Wine).
double since_process_start() {
    FILETIME created, exited, kernel, user, now;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user)) return -1;
    GetSystemTimeAsFileTime(&now);
    auto ticks = [](const FILETIME& f) { return (static_cast<uint64_t>(f.dwHighDateTime) << 32) | f.dwLowDateTime; };
    return static_cast<double>(ticks(now) - ticks(created)) / 1e7;
}

}  // namespace

int wmain(int argc, wchar_t** argv) {
    double loaded = since_process_start();
    return serve(argc, argv, [loaded](const Args& args) -> std::unique_ptr<Program> {
        auto dll = args.count(L"--dml-dll") ? args.at(L"--dml-dll") : L"DirectML.dll";
        auto adapter = args.count(L"--adapter") ? utf8(args.at(L"--adapter").c_str()) : std::string();
        auto kind = args.count(L"--adapter-kind") ? utf8(args.at(L"--adapter-kind").c_str()) : std::string();
        UINT descriptors = kHeapDescriptors;
        if (args.count(L"--descriptors")) descriptors = static_cast<UINT>(std::wcstoul(args.at(L"--descriptors").c_str(), nullptr, 10));
        static std::unique_ptr<Device> device;  // outlives the runner that borrows it
        double t0 = now_s();
        device.reset(new Device(dll, adapter, kind));
        double t1 = now_s();
        std::unique_ptr<Runner> runner(new Runner(*device, std::max<UINT>(descriptors, 64)));
        double t2 = now_s();
        runner->startup = JsonWriter().num("process", loaded).num("device", t1 - t0).num("runner", t2 - t1).done();
        return std::unique_ptr<Program>(runner.release());
    });
}
