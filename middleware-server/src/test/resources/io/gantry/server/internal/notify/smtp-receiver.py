"""A real SMTP server for MailDeliveryTest (aiosmtpd, Debian's python3-aiosmtpd).

Arguments: DIRECTORY MODE [CERT KEY]. MODE "starttls" offers STARTTLS with CERT/KEY (PEM) and
refuses MAIL before it; MODE "plain" offers no STARTTLS at all. Prints the port it listens on
(127.0.0.1, chosen by the system), then saves each accepted message as DIRECTORY/msg-N.eml. While
DIRECTORY/refuse-next exists, the next message is refused with a temporary 451 and the file is
removed (the refused message is kept as DIRECTORY/refused-N.eml). With DIRECTORY/login (a user
name line and a password line) in MODE "starttls", a client must log in with them, after STARTTLS,
before it may send. Runs until killed.
"""
import asyncio
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult

directory, mode = sys.argv[1], sys.argv[2]


class Handler:
    count = 0

    async def handle_DATA(self, server, session, envelope):
        refuse = os.path.join(directory, "refuse-next")
        Handler.count += 1
        refused = os.path.exists(refuse)
        kind = "refused" if refused else "msg"
        name = os.path.join(directory, "%s-%d.eml" % (kind, Handler.count))
        with open(name + ".part", "wb") as out:
            out.write(envelope.original_content)
        os.rename(name + ".part", name)  # whole messages only
        if refused:
            os.remove(refuse)
            return "451 4.3.0 refused once by the test"
        return "250 2.0.0 accepted"


def authenticator(expected):
    def check(server, session, envelope, mechanism, auth_data):
        given = (auth_data.login, auth_data.password)
        # handled=False: aiosmtpd itself answers a refused login with 535. Its default (True)
        # means "the authenticator already answered", so the client got no reply at all and
        # waited for its read timeout (mail.smtp.timeout, 10 s) instead.
        return AuthResult(success=given == expected, handled=False)

    return check


async def main():
    context = None
    if mode == "starttls":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(sys.argv[3], sys.argv[4])
    login = os.path.join(directory, "login")
    expected = None
    if context is not None and os.path.exists(login):
        with open(login, "rb") as f:
            user, password = f.read().split(b"\n")[:2]
        expected = (user, password)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(
            Handler(),
            hostname="localhost",
            tls_context=context,
            require_starttls=context is not None,
            authenticator=authenticator(expected) if expected else None,
            auth_required=expected is not None,
            auth_require_tls=True,
        ),
        host="127.0.0.1",
        port=0,
    )
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


asyncio.run(main())
