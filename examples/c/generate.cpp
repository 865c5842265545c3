// The C API from C++ (the header is C++-compatible). Build: make -C examples/c generate-cpp
#include <cstdio>
#include <string>
#include <vector>

#include <sno.h>

int main() {
    sno_generator *gen = nullptr;
    if (sno_generator_new(nullptr, &gen) != SNO_STATUS_OK) return 1;
    std::vector<sno_id> ids(4);
    if (sno_generator_next_many(gen, 1, ids.data(), ids.size()) != SNO_STATUS_OK) return 1;
    sno_generator_free(gen);
    std::string text(ids.size() * SNO_ENCODED_LEN, '\0');
    if (sno_id_encode_many(ids.data(), ids.size(), &text[0]) != SNO_STATUS_OK) return 1;
    for (size_t i = 0; i < ids.size(); i++) {
        std::printf("%s partition=%u sequence=%u\n", text.substr(i * SNO_ENCODED_LEN, SNO_ENCODED_LEN).c_str(),
                    unsigned(sno_id_partition(ids[i])), unsigned(sno_id_sequence(ids[i])));
    }
    return sno_id_compare(ids[0], ids[3]) < 0 ? 0 : 1;
}
