/*
 * gantry-client: how bin/gantry hands a command to the user's command agent (a JVM that stays up
 * between commands, io.gantry.cli.CommandAgent) instead of starting a JVM for it.
 *
 *   gantry-client SOCKET [ARGUMENT...]
 *
 * It sends the arguments, the working directory, whether standard input and output are a terminal,
 * and the environment over the Unix socket SOCKET, then copies the agent's output frames to
 * standard output and error and exits with the command's exit code. The protocol is described in
 * AgentRequest.java and AgentReply.java.
 *
 * Exit 75: no agent answers at SOCKET (bin/gantry starts one and runs the command itself). Exit 76:
 * the agent asks that the command run in the user's own process (it needs the terminal or standard
 * input). Neither is ever an exit code of gantry. The socket's directory must belong to the user
 * and be closed to everyone else, or the client does not connect (exit 75): a socket planted by
 * another user is never trusted with the environment, which may hold GANTRY_PASSWORD.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

enum { EXIT_NO_AGENT = 75, EXIT_RUN_LOCALLY = 76, EXIT_AGENT_FAILED = 3 };
enum { FRAME_STDOUT = 1, FRAME_STDERR = 2, FRAME_EXIT = 3, FRAME_RUN_LOCALLY = 4 };

extern char **environ;

struct gcl_buffer {
    char *bytes;
    size_t length;
    size_t capacity;
};

static int gcl_append(struct gcl_buffer *buffer, const char *text)
{
    size_t size = strlen(text) + 1; /* with its NUL */
    if (buffer->length + size > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (buffer->length + size > capacity)
            capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown)
            return -1;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, text, size);
    buffer->length += size;
    return 0;
}

static int gcl_write_all(int fd, const void *bytes, size_t length)
{
    const char *next = bytes;
    while (length > 0) {
        ssize_t written = write(fd, next, length);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        next += written;
        length -= (size_t)written;
    }
    return 0;
}

/* 1: read all, 0: end of stream before the first byte, -1: error or end in the middle */
static int gcl_read_all(int fd, void *bytes, size_t length)
{
    char *next = bytes;
    size_t wanted = length;
    while (length > 0) {
        ssize_t got = read(fd, next, length);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (got == 0)
            return length == wanted ? 0 : -1;
        next += got;
        length -= (size_t)got;
    }
    return 1;
}

/* The socket's directory is the user's own and closed to others. */
static int gcl_directory_is_private(const char *socket_path)
{
    char directory[PATH_MAX];
    size_t length = strlen(socket_path);
    if (length == 0 || length >= sizeof directory)
        return 0;
    memcpy(directory, socket_path, length + 1);
    char *slash = strrchr(directory, '/');
    if (!slash || slash == directory)
        return 0;
    *slash = '\0';
    struct stat status;
    if (lstat(directory, &status) != 0 || !S_ISDIR(status.st_mode))
        return 0;
    return status.st_uid == geteuid() && (status.st_mode & 077) == 0;
}

static int gcl_connect(const char *socket_path)
{
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    if (strlen(socket_path) >= sizeof address.sun_path)
        return -1;
    strcpy(address.sun_path, socket_path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int gcl_request(struct gcl_buffer *request, int argc, char **argv)
{
    char *directory = getcwd(NULL, 0);
    char count[16];
    snprintf(count, sizeof count, "%d", argc);
    int failed = !directory || gcl_append(request, "gantry-agent/1") || gcl_append(request, directory)
                 || gcl_append(request, isatty(STDIN_FILENO) ? "1" : "0")
                 || gcl_append(request, isatty(STDOUT_FILENO) ? "1" : "0")
                 || gcl_append(request, count);
    free(directory);
    for (int i = 0; !failed && i < argc; i++)
        failed = gcl_append(request, argv[i]);
    for (char **entry = environ; !failed && *entry; entry++)
        failed = gcl_append(request, *entry);
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gantry-client SOCKET [ARGUMENT...]\n");
        return EXIT_NO_AGENT;
    }
    const char *socket_path = argv[1];
    if (!gcl_directory_is_private(socket_path))
        return EXIT_NO_AGENT;
    int agent = gcl_connect(socket_path);
    if (agent < 0)
        return EXIT_NO_AGENT;

    struct gcl_buffer request = {0};
    if (gcl_request(&request, argc - 2, argv + 2) != 0 || request.length > (4u << 20)) {
        fprintf(stderr, "gantry: the command line and environment are too large for the agent\n");
        return EXIT_RUN_LOCALLY;
    }
    uint32_t length = htonl((uint32_t)request.length);
    if (gcl_write_all(agent, &length, sizeof length) != 0
        || gcl_write_all(agent, request.bytes, request.length) != 0)
        return EXIT_NO_AGENT; /* the agent went away before it read anything */
    free(request.bytes);

    int wrote = 0;
    static char chunk[65536];
    for (;;) {
        unsigned char header[5];
        int got = gcl_read_all(agent, header, sizeof header);
        if (got <= 0)
            break;
        uint32_t size;
        memcpy(&size, header + 1, sizeof size);
        size = ntohl(size);
        switch (header[0]) {
        case FRAME_EXIT: {
            uint32_t code;
            if (size != sizeof code || gcl_read_all(agent, &code, sizeof code) != 1)
                goto broken;
            return (int)(ntohl(code) & 0xff);
        }
        case FRAME_RUN_LOCALLY:
            if (wrote)
                goto broken;
            return EXIT_RUN_LOCALLY;
        case FRAME_STDOUT:
        case FRAME_STDERR: {
            int out = header[0] == FRAME_STDOUT ? STDOUT_FILENO : STDERR_FILENO;
            while (size > 0) {
                size_t part = size < sizeof chunk ? size : sizeof chunk;
                if (gcl_read_all(agent, chunk, part) != 1)
                    goto broken;
                /* a closed standard output (gantry list | head) ends us, as it ends any program */
                if (gcl_write_all(out, chunk, part) != 0)
                    return 1;
                size -= (uint32_t)part;
                wrote = 1;
            }
            break;
        }
        default:
            goto broken;
        }
    }
broken:
    fprintf(stderr,
            "gantry: the command agent at %s ended before the command did; the command may or may "
            "not have run (GANTRY_AGENT=off runs commands without the agent)\n",
            socket_path);
    return EXIT_AGENT_FAILED;
}
