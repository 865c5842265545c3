/* Inspect IDs of any format with the generic C API: detection, canonical text, Unix time and
 * the named fields, with no per-format code.
 * Build: make -C examples/c   (uses pkg-config --cflags --libs sno)
 * Run:   ./inspect 01ARZ3NDEKTSV4RRFFQ69G5FAV user_01h455vb4pex5vsknk084sn02q nanoflake:hello */
#include <stdio.h>
#include <string.h>

#include <sno.h>

/* Reads "text" (the format detected) or "format:text" (the format named). */
static int inspect(const char *arg) {
    int format = SNO_FORMAT_DETECT;
    const char *text = arg;
    const char *colon = strchr(arg, ':');
    if (colon && colon - arg < 32) {
        char name[32];
        sno_format named;
        memcpy(name, arg, (size_t)(colon - arg));
        name[colon - arg] = '\0';
        if (sno_format_from_name(name, &named) == SNO_STATUS_OK) {
            format = (int)named;
            text = colon + 1;
        }
    }
    sno_inspection in;
    sno_status st = sno_inspect(format, text, strlen(text), &in);
    if (st != SNO_STATUS_OK) {
        char message[256];
        sno_last_error_message(message, sizeof message);
        printf("%s: %s (%s)\n", arg, sno_status_str(st), message);
        return st == SNO_STATUS_AMBIGUOUS_FORMAT ? 0 : 1;
    }
    printf("%s: %s %s", arg, sno_format_name((int)in.format), in.text);
    if (in.has_unix_ms) printf(" @%lld ms", (long long)in.unix_ms);
    printf(" |");
    for (size_t i = 0; i < in.field_count; i++) {
        const sno_field *f = &in.fields[i];
        switch (f->kind) {
        case SNO_FIELD_KIND_TEXT: printf(" %s=\"%s\"", f->name, f->text); break;
        case SNO_FIELD_KIND_BOOL: printf(" %s=%s", f->name, f->value ? "true" : "false"); break;
        default:
            if (f->value_hi) printf(" %s=0x%llx%016llx", f->name, (unsigned long long)f->value_hi, (unsigned long long)f->value);
            else printf(" %s=%llu", f->name, (unsigned long long)f->value);
        }
        if (strcmp(f->unit, "none") != 0) printf("[%s]", f->unit);
    }
    printf("\n");
    return 0;
}

int main(int argc, char **argv) {
    static const char *samples[] = {
        "brpk4q72xwf2m63l", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
        "0372hg16csmsm50l8dikcvukc", "05TTUP1HNCPNH30VEK64KDQT9BSNU4C4", "00CMXB6TAK4SA",
        "ulidflake:00CMXB6TAK4SA", "nanoflake:1y2p0ij32e8e7", "user_01h455vb4pex5vsknk084sn02q",
    };
    int failed = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++) failed |= inspect(argv[i]);
    } else {
        for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) failed |= inspect(samples[i]);
    }
    return failed;
}
