"""The whole job lifecycle through zeep, a SOAP stack Gantry did not write.

Run by ZeepClientTest against a server that test started; exits 0 when every check passed and
prints the first failed check otherwise. Built from the checked-in WSDL contract, as a Python user
would build a client, so a contract zeep cannot read fails here.

Synchronisation is by polling with a bounded deadline, never by a fixed sleep.
"""

import argparse
import sys
import time

from xml.sax.saxutils import escape

import requests
from lxml import etree
from zeep import Client
from zeep.exceptions import Fault
from zeep.transports import Transport
from zeep.wsse.username import UsernameToken

API = "urn:gantry:jobmanagement:1"
JSDL = "http://schemas.ggf.org/jsdl/2005/11/jsdl"
POSIX = "http://schemas.ggf.org/jsdl/2005/11/jsdl-posix"
FINAL = {"SUCCEEDED", "FAILED", "CANCELLED", "KILLED"}
# a name outside Latin-1 that must survive the round trip byte for byte
NAME = "Größe-€"


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def job(name, script, wall_time=60):
    name, script = escape(name), escape(script)
    xml = (
        f'<jsdl:JobDefinition xmlns:jsdl="{JSDL}" xmlns:posix="{POSIX}"><jsdl:JobDescription>'
        f"<jsdl:JobIdentification><jsdl:JobName>{name}</jsdl:JobName></jsdl:JobIdentification>"
        "<jsdl:Application><posix:POSIXApplication><posix:Executable>/bin/sh</posix:Executable>"
        f"<posix:Argument>-c</posix:Argument><posix:Argument>{script}</posix:Argument>"
        "<posix:Output>stdout.txt</posix:Output><posix:Error>stderr.txt</posix:Error>"
        f"<posix:WallTimeLimit>{wall_time}</posix:WallTimeLimit>"
        "</posix:POSIXApplication></jsdl:Application></jsdl:JobDescription></jsdl:JobDefinition>"
    )
    # an xs:any element travels as {'_value_1': element} in zeep
    return {"_value_1": etree.fromstring(xml.encode("utf-8"))}


def invalid_job():
    xml = (
        f'<jsdl:JobDefinition xmlns:jsdl="{JSDL}"><jsdl:JobDescription><jsdl:NoSuchElement/>'
        "</jsdl:JobDescription></jsdl:JobDefinition>"
    )
    return {"_value_1": etree.fromstring(xml.encode("utf-8"))}


def await_status(service, job_id, accept, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        status = service.getJobStatus(jobId=job_id)
        if accept(status):
            return status
        check(time.monotonic() < deadline, f"job {job_id} still {status.state} after {timeout} s")
        time.sleep(0.05)


def expect_fault(call, code, *words):
    try:
        call()
    except Fault as fault:
        check(fault.code is not None and fault.code.endswith(code), f"fault code {fault.code}, want {code}")
        for word in words:
            check(word in fault.message, f"fault {fault.message!r} does not say {word!r}")
        check("Exception" not in fault.message and "java." not in fault.message,
              f"fault text leaks a Java exception: {fault.message!r}")
        return fault
    raise AssertionError(f"no {code} fault")


def session_for(args):
    session = requests.Session()
    # REQUESTS_CA_BUNDLE or a proxy in the environment would override what is set here
    session.trust_env = False
    if args.cafile:
        session.verify = args.cafile
    if args.auth == "basic":
        session.auth = basic(args.user, args.password)
    return session


def basic(user, password):
    # requests encodes str credentials as Latin-1; the server's challenge says charset="UTF-8"
    # (RFC 7617), so give it the UTF-8 bytes
    return (user.encode("utf-8"), password.encode("utf-8"))


def client_for(args, password=None):
    session = session_for(args)
    wsse = None
    if args.auth == "wsse":
        wsse = UsernameToken(args.user, password or args.password)
    elif password is not None:
        session.auth = basic(args.user, password)
    return Client(args.wsdl, transport=Transport(session=session, timeout=30), wsse=wsse)


def lifecycle(args):
    client = client_for(args)
    service = client.create_service(f"{{{API}}}JobManagementServiceSoapBinding", args.url)

    info = service.getServerInfo()
    check(info is not None, "getServerInfo answers")

    validation = service.validateJob(jobDefinition=invalid_job())
    check(validation.valid is False and len(validation.problem) > 0, "validateJob reports the problems")
    fault = expect_fault(lambda: service.submitJob(jobDefinition=invalid_job()), "Client", "invalid")
    check(fault.detail is not None and "NoSuchElement" in etree.tostring(fault.detail, encoding="unicode"),
          "the InvalidJob fault carries the full report")

    job_id = service.submitJob(jobDefinition=job(NAME, "echo hello-zeep; echo oops >&2"))
    done = await_status(service, job_id, lambda s: s.state in FINAL)
    check(done.state == "SUCCEEDED", f"the job succeeded: {done.state} {done.failureReason}")
    check(done.name == NAME, f"the job's name survives the round trip: {done.name!r}")
    out = service.getJobOutput(jobId=job_id, stream="STDOUT", offset=0, maxBytes=1000)
    check(out.data == b"hello-zeep\n" and out.complete, f"stdout: {out.data!r}")
    err = service.getJobOutput(jobId=job_id, stream="STDERR", offset=0, maxBytes=1000)
    check(err.data == b"oops\n", f"stderr: {err.data!r}")

    unknown = "a" * 32
    statuses = service.getJobStatuses(jobId=[job_id, unknown])
    check(len(statuses) == 2, f"one answer per id asked: {len(statuses)}")
    check(statuses[0].jobId == job_id and statuses[0].state == "SUCCEEDED" and not statuses[0].notFound,
          "the known job's status")
    check(statuses[1].jobId == unknown and statuses[1].notFound is True, "the unknown id is marked not found")

    jobs = service.listJobs(state=[], offset=0, limit=10, allUsers=False)
    check(any(j.jobId == job_id for j in jobs.job), "listJobs lists the job")
    expect_fault(lambda: service.listJobs(state=[], offset=0, limit=0, allUsers=False), "Client", "limit")
    expect_fault(lambda: service.listJobs(state=[], offset=-1, limit=10, allUsers=False), "Client", "offset")
    expect_fault(lambda: service.getJobOutput(jobId=job_id, stream="STDOUT", offset=-1, maxBytes=10),
                 "Client", "offset")
    expect_fault(lambda: service.getJobStatus(jobId="not-an-id"), "Client", "jobId")
    expect_fault(lambda: service.getJobStatus(jobId=unknown), "Client", unknown)

    audit = service.getJobAudit(jobId=job_id)
    check(audit is not None, "getJobAudit answers")
    check(service.getJobResults(jobId=job_id).state == "SUCCEEDED", "getJobResults answers")
    definition = service.getJobDefinition(jobId=job_id)
    # zeep hands back the xs:any content itself (or wrapped, depending on the answer's shape)
    element = getattr(definition, "_value_1", definition)
    check(NAME in etree.tostring(element, encoding="unicode"), "getJobDefinition gives the job back")
    expect_fault(lambda: service.cancelJob(jobId=job_id), "Client", "already ended")
    files = {f.path: (f.size, f.type) for f in service.listJobFiles(jobId=job_id)}
    check(files.get("stdout.txt") == (len(b"hello-zeep\n"), "file"),
          f"listJobFiles lists the job's files with their sizes: {files}")
    expect_fault(lambda: service.listJobFiles(jobId=unknown), "Client", unknown)

    runner = service.submitJob(jobDefinition=job("runner", "echo started; while :; do sleep 0.1; done"))
    await_status(service, runner, lambda s: s.state == "RUNNING" or s.state in FINAL)
    # running is not enough: wait until the program has written, so SIGTERM meets the loop
    deadline = time.monotonic() + 60
    while service.getJobOutput(jobId=runner, stream="STDOUT", offset=0, maxBytes=100).data != b"started\n":
        check(time.monotonic() < deadline, "the running job writes its first line")
        time.sleep(0.05)
    killed = service.killJob(jobId=runner)
    check(killed.state == "KILLED", f"killJob ends it KILLED: {killed.state}")
    # SIGTERM ends the shell at once; only a machine too loaded to let it exit within the
    # server's grace period sees SIGKILL. Either way: one reason naming the signal, and 128 + it.
    by_signal = {f"killed by {args.user} with SIGTERM (signal 15)": 143,
                 f"killed by {args.user} with SIGKILL (signal 9)": 137}
    check(killed.failureReason in by_signal, f"one reason naming the signal: {killed.failureReason!r}")
    check(killed.exitCode == by_signal.get(killed.failureReason),
          f"the exit code is 128 + that signal: {killed.exitCode}")

    wrong = client_for(args, password=args.password + "-wrong")
    wrong_service = wrong.create_service(f"{{{API}}}JobManagementServiceSoapBinding", args.url)
    expect_fault(lambda: wrong_service.getServerInfo(), "Client", "unknown user or wrong password")
    return job_id


def soap12(args, job_id):
    client = client_for(args)
    service = client.create_service(f"{{{API}}}JobManagementServiceSoap12Binding", args.url12)
    check(service.getServerInfo() is not None, "SOAP 1.2: getServerInfo")
    check(service.getJobStatus(jobId=job_id).state == "SUCCEEDED", "SOAP 1.2: getJobStatus")
    expect_fault(lambda: service.listJobs(state=[], offset=0, limit=-1, allUsers=False), "Sender", "limit")
    fault = expect_fault(lambda: service.submitJob(jobDefinition=invalid_job()), "Sender", "invalid")
    check(fault.detail is not None, "SOAP 1.2: the InvalidJob fault carries the report")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wsdl", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--url12", required=True)
    parser.add_argument("--auth", choices=["basic", "wsse"], required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--cafile")
    args = parser.parse_args()
    # the password comes on standard input, never in the process arguments
    args.password = sys.stdin.readline().rstrip("\n")
    try:
        job_id = lifecycle(args)
        soap12(args, job_id)
    except AssertionError as failed:
        print(f"zeep lifecycle ({args.auth}): FAILED: {failed}", file=sys.stderr)
        return 1
    print(f"zeep lifecycle ({args.auth}): all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
