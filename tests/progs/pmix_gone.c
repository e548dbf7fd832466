/* pmix_gone.c — a rank that dies in the middle of connecting to mrun's PMIx server, as a rank
 * killed during start-up does: it sends a PMIx 4.2 client handshake for its rank (the layout
 * launcher/admit.c reads) and closes the socket before the server's reply. PMIx's server then
 * printed "PMIX ERROR: UNREACHABLE in file ...ptl_base_connection_hdlr.c" on mrun's stderr.
 * It waits (5 s at most) until the server has answered into the closed socket, so that mrun is
 * still there to print. Prints "gone" and exits 0 (a plain program, as far as mrun can tell). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* Whether /proc/net/tcp still lists a socket whose local port is `port`. */
static int port_listed(unsigned port)
{
    FILE *f = fopen("/proc/net/tcp", "r");
    if (!f)
        return 0;
    char line[512];
    unsigned lp;
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, " %*d: %*x:%x", &lp) == 1 && lp == port;
    fclose(f);
    return found;
}

static size_t put(unsigned char *buf, size_t at, const void *src, size_t len)
{
    memcpy(buf + at, src, len);
    return at + len;
}

static size_t put_u32(unsigned char *buf, size_t at, uint32_t v)
{
    uint32_t net = htonl(v);
    return put(buf, at, &net, sizeof net);
}

int main(void)
{
    const char *uri = getenv("PMIX_SERVER_URI41"), *ns = getenv("PMIX_NAMESPACE"),
               *rank = getenv("PMIX_RANK");
    const char *tcp = uri ? strstr(uri, "tcp4://") : NULL;
    unsigned a, b, c, d, port;
    if (!tcp || !ns || !rank ||
        sscanf(tcp, "tcp4://%u.%u.%u.%u:%u", &a, &b, &c, &d, &port) != 5) {
        fprintf(stderr, "pmix_gone: no PMIx server in the environment\n");
        return 1;
    }
    unsigned char body[512], msg[600];
    size_t n = put(body, 0, "native", 7);
    n = put_u32(body, n, 8); /* the credential: uid and gid */
    n = put_u32(body, n, (uint32_t)getuid());
    n = put_u32(body, n, (uint32_t)getgid());
    body[n++] = 0; /* a client started by a server */
    n = put(body, n, ns, strlen(ns) + 1);
    n = put_u32(body, n, (uint32_t)atoi(rank));
    n = put(body, n, "4.2.2\0v41\0\1hash\0", 16);
    int32_t index = -1;
    uint32_t tag = UINT32_MAX;
    uint64_t len = n;
    size_t m = put(msg, 0, &index, 4);
    m = put(msg, m, &tag, 4);
    m = put(msg, m, &len, 8);
    m = put(msg, m, body, n);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(a << 24 | b << 16 | c << 8 | d);
    if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        write(s, msg, m) != (ssize_t)m) {
        perror("pmix_gone: connecting to mrun's PMIx server");
        return 1;
    }
    struct sockaddr_in me;
    socklen_t ml = sizeof me;
    unsigned mine = getsockname(s, (struct sockaddr *)&me, &ml) == 0 ? ntohs(me.sin_port) : 0;
    close(s);
    /* Closed with unread data on neither side, the socket lingers in FIN_WAIT2 until the
     * server's reply is answered with a reset: then PMIx's next send fails, and it prints. */
    struct timespec tick = {0, 10000000L};
    for (int i = 0; i < 500 && mine && port_listed(mine); i++)
        nanosleep(&tick, NULL);
    nanosleep(&tick, NULL);
    printf("gone\n");
    return 0;
}
