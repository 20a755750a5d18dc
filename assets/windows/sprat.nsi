; Sprat's Windows installer, built by scripts/windows with NSIS (makensis), which defines
; VERSION, STAGE (the folder of the zip: sprat.exe, README.txt, the licences, demo\), ICON (sprat.ico) and
; OUTFILE. A per-user install: no administrator, everything under the user's own folders and
; registry (HKCU). docs/windows.md lists what it registers; the uninstaller removes all of it.

; A 64-bit installer, as sprat.exe is a 64-bit program: it runs wherever Sprat does, and
; under a 64-bit Wine without its 32-bit half.
Target amd64-unicode
!include "MUI2.nsh"
!include "LogicLib.nsh"

Name "Sprat ${VERSION}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\Sprat"
InstallDirRegKey HKCU "Software\Sprat" "InstallDir"
SetCompressor /SOLID lzma
BrandingText "Sprat ${VERSION}"

!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Sprat"
!define CLASSES "Software\Classes"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_FINISHPAGE_RUN "$INSTDIR\sprat.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Open Sprat"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductName" "Sprat"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileDescription" "Sprat ${VERSION} installer"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "LegalCopyright" "Sprat developers, MIT OR Apache-2.0"

; A file type Sprat opens by default: its ProgID (Sprat.EXT), named in "Open with" and made
; the extension's default for this user.
!macro Associate EXT DESCRIPTION
  WriteRegStr HKCU "${CLASSES}\Sprat.${EXT}" "" "${DESCRIPTION}"
  WriteRegStr HKCU "${CLASSES}\Sprat.${EXT}\DefaultIcon" "" "$INSTDIR\sprat.exe,0"
  WriteRegStr HKCU "${CLASSES}\Sprat.${EXT}\shell\open\command" "" '"$INSTDIR\sprat.exe" "%1"'
  WriteRegStr HKCU "${CLASSES}\.${EXT}\OpenWithProgids" "Sprat.${EXT}" ""
  WriteRegStr HKCU "${CLASSES}\.${EXT}" "" "Sprat.${EXT}"
  WriteRegStr HKCU "${CLASSES}\Applications\sprat.exe\SupportedTypes" ".${EXT}" ""
!macroend

; Undoes Associate: the extension's default is removed only while it is still Sprat's.
!macro Dissociate EXT
  DeleteRegKey HKCU "${CLASSES}\Sprat.${EXT}"
  DeleteRegValue HKCU "${CLASSES}\.${EXT}\OpenWithProgids" "Sprat.${EXT}"
  DeleteRegKey /ifempty HKCU "${CLASSES}\.${EXT}\OpenWithProgids"
  ReadRegStr $0 HKCU "${CLASSES}\.${EXT}" ""
  ${If} $0 == "Sprat.${EXT}"
    DeleteRegValue HKCU "${CLASSES}\.${EXT}" ""
  ${EndIf}
  DeleteRegKey /ifempty HKCU "${CLASSES}\.${EXT}"
!macroend

Section "Sprat"
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  File "${STAGE}\sprat.exe"
  File "${STAGE}\README.txt"
  File "${STAGE}\LICENSE-MIT.txt"
  File "${STAGE}\LICENSE-APACHE.txt"
  SetOutPath "$INSTDIR\demo"
  File "${STAGE}\demo\demo.sprat"
  File "${STAGE}\demo\demo.png"
  SetOutPath "$INSTDIR"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  WriteRegStr HKCU "Software\Sprat" "InstallDir" "$INSTDIR"

  CreateShortCut "$SMPROGRAMS\Sprat.lnk" "$INSTDIR\sprat.exe" "" "$INSTDIR\sprat.exe" 0 \
    SW_SHOWNORMAL "" "Edit and preview 2D sprite animations"

  WriteRegStr HKCU "${CLASSES}\Applications\sprat.exe" "FriendlyAppName" "Sprat"
  WriteRegStr HKCU "${CLASSES}\Applications\sprat.exe\shell\open\command" "" '"$INSTDIR\sprat.exe" "%1"'
  !insertmacro Associate "def" "M.U.G.E.N character"
  !insertmacro Associate "air" "M.U.G.E.N animations"
  !insertmacro Associate "sff" "M.U.G.E.N sprites"
  !insertmacro Associate "aseprite" "Aseprite sprite"
  !insertmacro Associate "ase" "Aseprite sprite"
  !insertmacro Associate "sprat" "Sprat animations"
  ; Solarus sprites are .dat files, an extension many programs use: an extra verb on every
  ; .dat, never its default.
  WriteRegStr HKCU "${CLASSES}\SystemFileAssociations\.dat\shell\Sprat" "" "Open with Sprat"
  WriteRegStr HKCU "${CLASSES}\SystemFileAssociations\.dat\shell\Sprat" "Icon" "$INSTDIR\sprat.exe,0"
  WriteRegStr HKCU "${CLASSES}\SystemFileAssociations\.dat\shell\Sprat\command" "" '"$INSTDIR\sprat.exe" "%1"'

  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "Sprat"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "Sprat developers"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\sprat.exe,0"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1

  ; Explorer reads the associations again (SHCNE_ASSOCCHANGED).
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  Delete "$SMPROGRAMS\Sprat.lnk"
  !insertmacro Dissociate "def"
  !insertmacro Dissociate "air"
  !insertmacro Dissociate "sff"
  !insertmacro Dissociate "aseprite"
  !insertmacro Dissociate "ase"
  !insertmacro Dissociate "sprat"
  DeleteRegKey HKCU "${CLASSES}\SystemFileAssociations\.dat\shell\Sprat"
  DeleteRegKey /ifempty HKCU "${CLASSES}\SystemFileAssociations\.dat\shell"
  DeleteRegKey /ifempty HKCU "${CLASSES}\SystemFileAssociations\.dat"
  DeleteRegKey HKCU "${CLASSES}\Applications\sprat.exe"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  DeleteRegKey HKCU "Software\Sprat"

  ; The program's files only: the user's settings, backups and recovery files (in
  ; %APPDATA%\Sprat) stay, as their documents do.
  Delete "$INSTDIR\sprat.exe"
  Delete "$INSTDIR\README.txt"
  Delete "$INSTDIR\LICENSE-MIT.txt"
  Delete "$INSTDIR\LICENSE-APACHE.txt"
  Delete "$INSTDIR\demo\demo.sprat"
  Delete "$INSTDIR\demo\demo.png"
  RMDir "$INSTDIR\demo"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"

  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
SectionEnd
