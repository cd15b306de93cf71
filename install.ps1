<#
.SYNOPSIS
Installs mind-hooks for Windows x64 from a release, after checking its SHA-256.

.DESCRIPTION
Downloads the release archive mind-hooks-<version>-x86_64-pc-windows-msvc.zip and the release's SHA256SUMS,
refuses the archive unless its SHA-256 is the one listed there, and puts mind-hooks.exe into
~\.local\bin (or -Prefix DIR). Nothing is installed when anything fails.

  irm https://github.com/mind-agent/mind-hooks/releases/latest/download/install.ps1 | iex
  powershell -ExecutionPolicy Bypass -File install.ps1 -Version 0.1.0

The files are fetched as
  <URL>/v<version>/mind-hooks-<version>-x86_64-pc-windows-msvc.zip
  <URL>/v<version>/SHA256SUMS
Without a version, the latest one is read from the archive names in the latest release's SHA256SUMS
(https://github.com/<repository>/releases/latest/download/SHA256SUMS by default, <URL>/latest/SHA256SUMS
with a base URL).

.PARAMETER Version
The release to install, e.g. 0.1.0 (default: the latest release). Or set MIND_HOOKS_VERSION.

.PARAMETER Prefix
The directory that receives mind-hooks.exe (default: ~\.local\bin). Or set MIND_HOOKS_PREFIX.

.PARAMETER BaseUrl
Where releases are downloaded from, e.g. a mirror. Or set MIND_HOOKS_DOWNLOAD_URL.
Default: https://github.com/<repository>/releases/download
#>
[CmdletBinding()]
param(
  [string]$Version = $env:MIND_HOOKS_VERSION,
  [string]$Prefix = $env:MIND_HOOKS_PREFIX,
  [string]$BaseUrl = $env:MIND_HOOKS_DOWNLOAD_URL,
  [switch]$Help
)

$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'

# The repository whose releases are installed: release.repository in deno.json, copied here by
# `deno task release:sync` (tests/release_coordinates_test.ts checks the copy).
$Repository = 'mind-agent/mind-hooks'
$DefaultUrl = "https://github.com/$Repository/releases/download"
$Target = 'x86_64-pc-windows-msvc'

function Get-ListedSha256([string]$SumsPath, [string]$Name) {
  foreach ($line in Get-Content -LiteralPath $SumsPath) {
    $fields = $line.Trim() -split '\s+', 2
    if ($fields.Count -eq 2 -and $fields[1].TrimStart('*') -eq $Name) { return $fields[0].ToLowerInvariant() }
  }
  return $null
}

function Save-Url([string]$Url, [string]$Path) {
  try {
    Invoke-WebRequest -UseBasicParsing -Uri $Url -OutFile $Path
  } catch {
    throw "cannot download $Url ($($_.Exception.Message))"
  }
}

function Install-MindHooks {
  if ($Help) { Get-Help $PSCommandPath -Detailed; return }
  if ($PSVersionTable.PSEdition -eq 'Core' -and -not $IsWindows) {
    throw 'this is not Windows: use install.sh (see the README''s Install section)'
  }
  $arch = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString()
  if ($arch -ne 'X64' -and $arch -ne 'Arm64') { throw "there is no mind-hooks binary for Windows on $arch" }
  if ($arch -eq 'Arm64') { Write-Host 'Windows on Arm: installing the x64 binary, which runs under emulation.' }
  # Windows PowerShell 5.1 may not offer TLS 1.2 by default.
  [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

  $base = if ($BaseUrl) { $BaseUrl.TrimEnd('/') } else { $DefaultUrl }
  $dest = if ($Prefix) { $Prefix } else { Join-Path $HOME '.local\bin' }
  $tmp = Join-Path ([System.IO.Path]::GetTempPath()) ("mind-hooks-" + [System.Guid]::NewGuid())
  New-Item -ItemType Directory -Path $tmp | Out-Null
  try {
    $ver = if ($Version) { $Version.TrimStart('v') } else { '' }
    if (-not $ver) {
      $latest = if ($base -eq $DefaultUrl) {
        "https://github.com/$Repository/releases/latest/download/SHA256SUMS"
      } else { "$base/latest/SHA256SUMS" }
      Save-Url $latest (Join-Path $tmp 'latest-SHA256SUMS')
      foreach ($line in Get-Content -LiteralPath (Join-Path $tmp 'latest-SHA256SUMS')) {
        $name = (($line.Trim() -split '\s+', 2)[-1]).TrimStart('*')
        if ($name -match "^mind-hooks-(.+)-$([regex]::Escape($Target))\.zip$") { $ver = $Matches[1]; break }
      }
      if (-not $ver) { throw "the latest release's SHA256SUMS ($latest) lists no archive for $Target" }
    }
    if ($ver -notmatch '^[0-9A-Za-z.+-]+$') { throw "`"$ver`" is not a version (expected e.g. 0.1.0)" }

    $archive = "mind-hooks-$ver-$Target.zip"
    Write-Host "mind-hooks $ver for $Target"
    Write-Host "  from $base/v$ver/"
    Save-Url "$base/v$ver/SHA256SUMS" (Join-Path $tmp 'SHA256SUMS')
    Save-Url "$base/v$ver/$archive" (Join-Path $tmp $archive)

    $expected = Get-ListedSha256 (Join-Path $tmp 'SHA256SUMS') $archive
    if (-not $expected) { throw "SHA256SUMS of v$ver has no line for $archive; nothing was installed" }
    if ($expected -notmatch '^[0-9a-f]{64}$') { throw "SHA256SUMS of v$ver has a malformed line for $archive" }
    $actual = (Get-FileHash -Algorithm SHA256 -LiteralPath (Join-Path $tmp $archive)).Hash.ToLowerInvariant()
    if ($actual -ne $expected) {
      throw ("checksum mismatch for ${archive}: refusing to install it`n" +
        "  expected (SHA256SUMS): $expected`n  downloaded:            $actual`n" +
        "The download is damaged or is not the published file; nothing was installed.")
    }
    Write-Host "  SHA-256 ${actual}: matches SHA256SUMS"

    $unpacked = Join-Path $tmp 'x'
    Expand-Archive -LiteralPath (Join-Path $tmp $archive) -DestinationPath $unpacked
    $exe = Join-Path $unpacked 'mind-hooks.exe'
    if (-not (Test-Path -LiteralPath $exe -PathType Leaf)) {
      throw "$archive holds no mind-hooks.exe at its top level; nothing was installed"
    }
    New-Item -ItemType Directory -Force -Path $dest | Out-Null
    $installed = Join-Path $dest 'mind-hooks.exe'
    try {
      Copy-Item -Force -LiteralPath $exe -Destination $installed
    } catch {
      throw "cannot write $installed (is mind-hooks running? close it, or pass -Prefix DIR): $($_.Exception.Message)"
    }
    Write-Host "installed $installed"
    Write-Host ("  " + (& $installed --version))

    $onPath = ($env:Path -split ';') | Where-Object { $_ -and $_.TrimEnd('\') -ieq $dest.TrimEnd('\') }
    if (-not $onPath) {
      Write-Host ''
      Write-Host "$dest is not on your PATH. Add it for your user (then open a new terminal):"
      Write-Host "  [Environment]::SetEnvironmentVariable('Path', `"$dest;`" + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
    }
    Write-Host "Next: mind-hooks doctor, then the README's tour (from step 1)."
  } finally {
    Remove-Item -Recurse -Force -LiteralPath $tmp -ErrorAction SilentlyContinue
  }
}

try {
  Install-MindHooks
} catch {
  Write-Host "install.ps1: $($_.Exception.Message)" -ForegroundColor Red
  # Run as a file, fail with exit 1; piped into iex, `exit` would close the user's window, so only report.
  if ($PSCommandPath) { exit 1 }
}
